package dev.egress.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Durations the services read are written as Spring Boot parses them (a number and one unit, or ISO-8601):
 * the schema refuses Go's {@code 1m30s}, which Spring refuses at startup, and the chart's own arithmetic on
 * them (shutdown checks, alert thresholds) reads both forms.
 */
class DurationsTest {

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "registry.sessionTimeout   | 1m30s  | /registry/sessionTimeout",
                "app.routing.maxStaleness  | 1m30s  | /app/routing/maxStaleness",
                "app.routing.pollInterval  | 1s500ms | /app/routing/pollInterval",
                "app.routing.recoveryHold  | 2m30s  | /app/routing/recoveryHold",
                "app.dispatch.overallTimeout | PT   | /app/dispatch/overallTimeout",
                "border.drainTimeout       | P1DT   | /border/drainTimeout",
                "border.drainTimeout       | 20     | /border/drainTimeout",
            })
    void durationsSpringWouldRefuseAreRejectedByTheSchema(String key, String value, String location) {
        ChartRendering.Render render =
                ChartRendering.render().example("values-hostnetwork.yaml").set(key, value);

        assertThatThrownBy(render::text).hasMessageContaining("schema").hasMessageContaining(location);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"30s", "5m", "500ms", "1d", "PT1M30S", "PT0.5S", "P1D", "P1DT2H"})
    void durationsSpringAcceptsRender(String value) {
        Manifests manifests = ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .set("registry.sessionTimeout", value)
                .set("app.routing.maxStaleness", value)
                .manifests();

        assertThat(Manifests.env(manifests.app()))
                .containsEntry("EGRESS_ROUTING_MAXSTALENESS", value)
                .containsEntry("EGRESS_REGISTRY_SESSIONTIMEOUT", value);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"PT1M, 30", "PT1M30S, 45", "90s, 45", "PT0.5S, 0.25", "2m, 60"})
    void theStaleSnapshotAlertIsHalfOfMaxStalenessInEitherForm(String maxStaleness, String threshold) {
        Map<String, Object> rule = ChartRendering.render()
                .set("metrics.prometheusRule.enabled", true)
                .set("app.routing.maxStaleness", maxStaleness)
                .manifests()
                .named("PrometheusRule", ChartRendering.PREFIX);
        List<Map<String, Object>> rules = Manifests.at(
                Manifests.<List<Map<String, Object>>>at(rule, "spec", "groups").get(0), "rules");

        assertThat(rules)
                .filteredOn(r -> "EgressRoutingSnapshotStale".equals(r.get("alert")))
                .singleElement()
                .satisfies(r -> assertThat((String) r.get("expr")).endsWith("> " + threshold));
    }

    @ParameterizedTest(name = "overall {0}, phase {1}")
    @CsvSource({"PT1M, PT75S, true", "PT1M, 55s, false", "60s, PT1M, false"})
    void theShutdownCheckReadsIsoDurations(String overall, String phase, boolean renders) {
        ChartRendering.Render render = ChartRendering.render()
                .set("app.dispatch.overallTimeout", overall)
                .set("app.shutdown.phaseTimeout", phase);

        if (renders) {
            assertThat(render.text()).contains("PT75S");
        } else {
            assertThatThrownBy(render::text).hasMessageContaining("must be above app.dispatch.overallTimeout");
        }
    }
}
