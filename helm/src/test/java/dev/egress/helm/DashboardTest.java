package dev.egress.helm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Grafana dashboard serves every release in a Grafana: no fixed uid (two releases' ConfigMaps would
 * overwrite one dashboard), and a namespace variable that every query filters on.
 */
class DashboardTest {

    @SuppressWarnings("unchecked")
    private static Map<String, Object> dashboard() {
        Map<String, Object> map = ChartRendering.render()
                .set("metrics.grafanaDashboard.enabled", true)
                .manifests()
                .named("ConfigMap", ChartRendering.PREFIX + "-dashboard");
        return ChartRendering.yaml()
                .load(Manifests.<Map<String, Object>>at(map, "data")
                        .get("egress-platform.json")
                        .toString());
    }

    @SuppressWarnings("unchecked")
    private static void collectExpressions(Object node, List<String> out) {
        if (node instanceof Map<?, ?> map) {
            map.forEach((k, v) -> {
                if ("expr".equals(k)) {
                    out.add((String) v);
                } else {
                    collectExpressions(v, out);
                }
            });
        } else if (node instanceof List<?> list) {
            list.forEach(v -> collectExpressions(v, out));
        }
    }

    @Test
    void theDashboardHasNoFixedUidAndANamespaceVariableThatEveryQueryFiltersOn() {
        Map<String, Object> dashboard = dashboard();
        List<Map<String, Object>> variables = Manifests.at(dashboard, "templating", "list");
        List<String> expressions = new ArrayList<>();
        collectExpressions(dashboard.get("panels"), expressions);

        assertThat(dashboard).doesNotContainKey("uid");
        assertThat(variables)
                .filteredOn(v -> "namespace".equals(v.get("name")))
                .singleElement()
                .satisfies(v -> assertThat(v).containsEntry("type", "query"));
        assertThat(expressions)
                .hasSizeGreaterThan(10)
                .allSatisfy(expr -> assertThat(expr.replaceAll("[a-z0-9_]+\\{namespace=\"\\$namespace\"[^}]*}", "")
                                .replaceAll("\\[\\$__rate_interval]|\\[5m]", ""))
                        .as("every series selector of %s filters on $namespace", expr)
                        .doesNotContainPattern("(egress|border|resilience4j)_[a-z0-9_]+"));
    }
}
