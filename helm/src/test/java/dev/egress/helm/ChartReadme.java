package dev.egress.helm;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Generates the chart's README.md from values.yaml: one table per {@code ## @section}, a row per
 * {@code ## @param name description} with the default read from the values themselves. The README is
 * never edited by hand; {@link ChartReadmeTest} fails when the committed one differs from this output.
 */
final class ChartReadme {

    private static final Pattern LINE = Pattern.compile("^\\s*## @(section|param) (\\S+(?: \\S+)*?)\\s*$");
    private static final Pattern PARAM = Pattern.compile("^(\\S+) (.+)$");

    private ChartReadme() {}

    /** The README for a chart's Chart.yaml and values.yaml text. */
    static String generate(String chartYaml, String valuesYaml) {
        Map<String, Object> chart = ChartRendering.yaml().load(chartYaml);
        Map<String, Object> values = ChartRendering.yaml().load(valuesYaml);
        StringBuilder out = new StringBuilder();
        out.append("# ").append(chart.get("name")).append("\n\n");
        out.append(
                        "<!-- Generated from values.yaml by helm/src/test/java/dev/egress/helm/ChartReadme.java; do not edit.\n")
                .append(
                        "     Regenerate: ./mvnw -B -ntp -pl helm -am test -Dtest=ChartReadmeTest -Dchart.readme.write=true -->\n\n");
        out.append(String.valueOf(chart.get("description")).trim()).append("\n\n");
        out.append("Chart ")
                .append(chart.get("version"))
                .append(", app ")
                .append(chart.get("appVersion"))
                .append(". How to run it, from an empty cluster to the first webhook: ")
                .append("[docs/kubernetes.md](../../docs/kubernetes.md). Examples: [examples/](examples/).\n\n");
        out.append(
                "```bash\nhelm install egress ./helm/egress-platform -n egress -f helm/egress-platform/examples/values-hostnetwork.yaml\n```\n");
        List<String[]> rows = new ArrayList<>();
        for (String line : valuesYaml.split("\n", -1)) {
            Matcher m = LINE.matcher(line);
            if (!m.matches()) {
                continue;
            }
            if (m.group(1).equals("section")) {
                table(out, rows);
                out.append("\n## ").append(m.group(2)).append("\n");
            } else {
                Matcher p = PARAM.matcher(m.group(2));
                if (p.matches()) {
                    rows.add(new String[] {p.group(1), p.group(2), defaultOf(values, p.group(1))});
                }
            }
        }
        table(out, rows);
        return out.toString();
    }

    private static void table(StringBuilder out, List<String[]> rows) {
        if (rows.isEmpty()) {
            return;
        }
        out.append("\n| Name | Description | Default |\n|---|---|---|\n");
        for (String[] row : rows) {
            out.append("| `")
                    .append(row[0])
                    .append("` | ")
                    .append(markdown(row[1]))
                    .append(" | ")
                    .append(row[2])
                    .append(" |\n");
        }
        rows.clear();
    }

    /** Escapes table pipes, and angle brackets outside code spans (Markdown would take {@code <id>} for HTML). */
    private static String markdown(String text) {
        String[] parts = text.replace("|", "\\|").split("`", -1);
        for (int i = 0; i < parts.length; i += 2) {
            parts[i] = parts[i].replace("<", "&lt;").replace(">", "&gt;");
        }
        return String.join("`", parts);
    }

    @SuppressWarnings("unchecked")
    private static String defaultOf(Map<String, Object> values, String path) {
        Object node = values;
        for (String key : path.split("\\.")) {
            if (!(node instanceof Map<?, ?> map) || !map.containsKey(key)) {
                return "";
            }
            node = ((Map<String, Object>) map).get(key);
        }
        return "`" + json(node).replace("|", "\\|") + "`";
    }

    @SuppressWarnings("unchecked")
    private static String json(Object node) {
        if (node == null) {
            return "null";
        }
        if (node instanceof String s) {
            return "\"" + s.replace("\"", "\\\"") + "\"";
        }
        if (node instanceof Map<?, ?> map) {
            return ((Map<String, Object>) map)
                    .entrySet().stream()
                            .map(e -> "\"" + e.getKey() + "\": " + json(e.getValue()))
                            .collect(Collectors.joining(", ", "{", "}"));
        }
        if (node instanceof List<?> list) {
            return list.stream().map(ChartReadme::json).collect(Collectors.joining(", ", "[", "]"));
        }
        return String.valueOf(node);
    }
}
