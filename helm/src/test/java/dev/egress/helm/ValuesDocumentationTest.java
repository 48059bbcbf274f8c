package dev.egress.helm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Bitnami convention: every value in values.yaml carries a {@code ## @param}, and no @param is stale. */
class ValuesDocumentationTest {

    private static final Pattern PARAM = Pattern.compile("^\\s*## @param (\\S+) \\S.*$", Pattern.MULTILINE);

    @Test
    void everyValueHasAParamLineAndEveryParamNamesAValue() {
        String text = ChartRendering.read(ChartRendering.CHART.resolve("values.yaml"));
        Map<String, Object> values = ChartRendering.yaml().load(text);
        Set<String> params = new TreeSet<>();
        Matcher matcher = PARAM.matcher(text);
        while (matcher.find()) {
            params.add(matcher.group(1));
        }
        List<String> leaves = new ArrayList<>();
        collectLeaves("", values, leaves);

        // A @param on a map documents its whole subtree (e.g. a free-form tenant policy).
        assertThat(leaves)
                .allSatisfy(leaf -> assertThat(params)
                        .as("## @param for %s", leaf)
                        .anyMatch(p -> leaf.equals(p) || leaf.startsWith(p + ".")));
        Set<String> allPaths = new TreeSet<>();
        collectPaths("", values, allPaths);
        assertThat(params)
                .allSatisfy(p -> assertThat(allPaths)
                        .as("value documented by @param %s", p)
                        .contains(p));
    }

    @SuppressWarnings("unchecked")
    private static void collectLeaves(String prefix, Map<String, Object> map, List<String> out) {
        for (Map.Entry<String, Object> e : map.entrySet()) {
            String path = prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey();
            if (e.getValue() instanceof Map<?, ?> child && !child.isEmpty()) {
                collectLeaves(path, (Map<String, Object>) child, out);
            } else {
                out.add(path);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static void collectPaths(String prefix, Map<String, Object> map, Set<String> out) {
        for (Map.Entry<String, Object> e : map.entrySet()) {
            String path = prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey();
            out.add(path);
            if (e.getValue() instanceof Map<?, ?> child) {
                collectPaths(path, (Map<String, Object>) child, out);
            }
        }
    }
}
