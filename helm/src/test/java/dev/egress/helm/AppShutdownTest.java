package dev.egress.helm;

import static dev.egress.helm.Manifests.at;
import static dev.egress.helm.Manifests.containers;
import static dev.egress.helm.Manifests.env;
import static dev.egress.helm.Manifests.podSpec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A stopping App must not cut deliveries: it keeps serving while its endpoints leave the Services
 * (preStop), its graceful-shutdown phase outlasts the longest delivery, and Kubernetes waits for both.
 */
class AppShutdownTest {

    @Test
    void appKeepsServingThroughThePreStopDelayAndFinishesDeliveriesBeforeTheGracePeriodEnds() {
        Map<String, Object> app = ChartRendering.render().manifests().app();
        Map<String, Object> container = containers(app).get(0);

        assertThat(Manifests.<Map<String, Object>>at(container, "lifecycle", "preStop"))
                .as("the native sleep action, no exec")
                .containsOnlyKeys("sleep");
        assertThat(Manifests.<Integer>at(container, "lifecycle", "preStop", "sleep", "seconds"))
                .isEqualTo(10);
        assertThat(env(app))
                .containsEntry("SPRING_LIFECYCLE_TIMEOUTPERSHUTDOWNPHASE", "75s")
                .containsEntry("EGRESS_DISPATCH_ATTEMPTTIMEOUT", "40s")
                .containsEntry("EGRESS_DISPATCH_OVERALLTIMEOUT", "60s");
        int grace = Manifests.<Integer>at(podSpec(app), "terminationGracePeriodSeconds");
        assertThat(grace).as("grace above preStop (10s) + shutdown phase (75s)").isGreaterThan(10 + 75);
    }

    @Test
    void theShutdownValuesReachThePod() {
        Map<String, Object> app = ChartRendering.render()
                .set("app.dispatch.attemptTimeout", "20s")
                .set("app.dispatch.overallTimeout", "30s")
                .set("app.shutdown.preStopSeconds", 5)
                .set("app.shutdown.phaseTimeout", "40s")
                .set("app.terminationGracePeriodSeconds", 50)
                .manifests()
                .app();

        assertThat(Manifests.<Integer>at(containers(app).get(0), "lifecycle", "preStop", "sleep", "seconds"))
                .isEqualTo(5);
        assertThat(env(app))
                .containsEntry("SPRING_LIFECYCLE_TIMEOUTPERSHUTDOWNPHASE", "40s")
                .containsEntry("EGRESS_DISPATCH_OVERALLTIMEOUT", "30s");
        assertThat(Manifests.<Integer>at(podSpec(app), "terminationGracePeriodSeconds"))
                .isEqualTo(50);
    }

    @Test
    void noPreStopDelayRendersNoLifecycleHook() {
        Map<String, Object> app = ChartRendering.render()
                .set("app.shutdown.preStopSeconds", 0)
                .manifests()
                .app();

        assertThat(containers(app).get(0)).doesNotContainKey("lifecycle");
    }

    @Test
    void aShutdownPhaseNotAboveTheLongestDeliveryFailsTheRender() {
        assertThatThrownBy(ChartRendering.render().set("app.shutdown.phaseTimeout", "1m")::text)
                .hasMessageContaining("app.shutdown.phaseTimeout 1m must be above app.dispatch.overallTimeout 60s");
    }

    @Test
    void aGracePeriodThatEndsBeforePreStopAndShutdownFailsTheRender() {
        assertThatThrownBy(ChartRendering.render().set("app.terminationGracePeriodSeconds", 85)::text)
                .hasMessageContaining("app.terminationGracePeriodSeconds 85 must be above app.shutdown.preStopSeconds"
                        + " + app.shutdown.phaseTimeout (10s + 75s)");
    }

    @Test
    void anAttemptLongerThanTheWholeDeliveryFailsTheRender() {
        assertThatThrownBy(ChartRendering.render().set("app.dispatch.attemptTimeout", "2m")::text)
                .hasMessageContaining("app.dispatch.attemptTimeout 2m is above app.dispatch.overallTimeout 60s");
    }

    @Test
    void durationsSpringCannotReadAreRejectedByTheSchema() {
        assertThatThrownBy(ChartRendering.render().set("app.shutdown.phaseTimeout", "1m15s")::text)
                .hasMessageContaining("schema")
                .hasMessageContaining("/app/shutdown/phaseTimeout");
    }

    @Test
    void appRollsWithoutLosingCapacity() {
        Map<String, Object> app = ChartRendering.render().manifests().app();

        assertThat(Manifests.<Integer>at(app, "spec", "strategy", "rollingUpdate", "maxUnavailable"))
                .isZero();
        assertThat(Manifests.<String>at(at(app, "spec"), "strategy", "type")).isEqualTo("RollingUpdate");
    }
}
