package dev.egress.helm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What the documentation cites exists in the code and the chart: metric names (in the docs, the alert rules
 * and the dashboard) are meters the services register; alert names are rules of the chart; chart values are
 * keys of values.yaml; {@code egress.*} properties are bound by the services; the ports of
 * docs/architecture.md's contract are the services' defaults. A rename that leaves a doc behind fails here.
 */
class DocsMatchCodeTest {

    private static final Path REPOSITORY = ChartRendering.CHART.getParent().getParent();
    private static final Path RULES = ChartRendering.CHART.resolve("templates/monitoring/prometheusrule.yaml");
    private static final Path DASHBOARD = ChartRendering.CHART.resolve("files/grafana-dashboard.json");
    private static final List<String> MODULES = List.of(
            "app-service",
            "border-service",
            "discovery-common/egress-registry",
            "discovery-common/registry-ydb",
            "discovery-common/trust",
            "discovery-common/web-kit",
            "discovery-common/watched-files");
    /** Where the docs' class names (tests included) may come from, besides the services. */
    private static final List<String> ALL_MODULES = List.of(
            "app-service",
            "border-service",
            "discovery-common/egress-registry",
            "discovery-common/registry-ydb",
            "discovery-common/trust",
            "discovery-common/web-kit",
            "discovery-common/watched-files",
            "system-tests",
            "ydb-embedded",
            "helm");
    /** Backticked words shaped like chart values that are something else: a Java package, Secret keys. */
    private static final Set<String> NOT_VALUES = Set.of("registry.ydb", "tls.crt", "tls.key");
    /** Prometheus' suffixes on a Micrometer name: counters, timers, distribution summaries, base units. */
    private static final Pattern SUFFIX =
            Pattern.compile("(_seconds|_bytes)?(_total|_count|_sum|_bucket|_max|_active_count|_duration_sum)?");

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Path> files(Path root, String suffix) {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(p -> p.toString().endsWith(suffix)).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** README, docs/ and the chart's NOTES: what an operator reads. */
    private static List<Path> docs() {
        List<Path> docs = new ArrayList<>(files(REPOSITORY.resolve("docs"), ".md"));
        docs.add(REPOSITORY.resolve("README.md"));
        docs.add(ChartRendering.CHART.resolve("templates/NOTES.txt"));
        return docs;
    }

    private static String mainSources() {
        StringBuilder all = new StringBuilder();
        for (String module : MODULES) {
            files(REPOSITORY.resolve(module).resolve("src/main/java"), ".java").forEach(f -> all.append(read(f)));
            files(REPOSITORY.resolve(module).resolve("src/main/resources"), ".yml")
                    .forEach(f -> all.append(read(f)));
        }
        return all.toString();
    }

    private static Set<String> matches(Pattern pattern, String text) {
        Set<String> found = new TreeSet<>();
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            found.add(m.group(1));
        }
        return found;
    }

    @Test
    void everyMetricTheDocsRulesAndDashboardNameIsRegisteredByAService() {
        Set<String> meters = new TreeSet<>();
        matches(Pattern.compile("\"((?:egress|border)\\.[a-z0-9.]+)\""), mainSources())
                .forEach(name -> meters.add(name.replace('.', '_')));
        Pattern cited = Pattern.compile("(?<![\\w.-])((?:egress|border)_[a-z0-9_]+)");
        Map<String, String> sources = new TreeMap<>();
        for (Path doc : docs()) {
            sources.put(REPOSITORY.relativize(doc).toString(), read(doc));
        }
        sources.put("prometheusrule.yaml", read(RULES));
        sources.put("grafana-dashboard.json", read(DASHBOARD));

        List<String> unknown = new ArrayList<>();
        sources.forEach((file, text) -> {
            for (String metric : matches(cited, text)) {
                boolean known = meters.stream()
                        .anyMatch(m -> metric.startsWith(m)
                                && SUFFIX.matcher(metric.substring(m.length())).matches());
                if (!known) {
                    unknown.add(file + ": " + metric);
                }
            }
        });
        assertThat(meters).as("meters found in the sources").hasSizeGreaterThan(30);
        assertThat(unknown).as("metrics cited but registered by no service").isEmpty();
    }

    @Test
    void everyAlertTheDocsNameIsARuleOfTheChart() {
        Set<String> alerts = matches(Pattern.compile("- alert: (\\w+)"), read(RULES));
        Set<String> types = new TreeSet<>();
        for (String module : ALL_MODULES) {
            files(REPOSITORY.resolve(module).resolve("src"), ".java")
                    .forEach(f -> types.add(f.getFileName().toString().replace(".java", "")));
        }
        List<String> unknown = new ArrayList<>();
        for (Path doc : docs()) {
            for (String name : matches(Pattern.compile("\\b(Egress[A-Z][A-Za-z]+)\\b"), read(doc))) {
                if (!types.contains(name) && !alerts.contains(name)) {
                    unknown.add(REPOSITORY.relativize(doc) + ": " + name);
                }
            }
        }
        assertThat(alerts).hasSizeGreaterThan(15);
        assertThat(unknown)
                .as("alerts cited but not in the chart's PrometheusRule")
                .isEmpty();
    }

    @Test
    void everyChartValueTheDocsNameIsAKeyOfValuesYaml() {
        Map<String, Object> values = ChartRendering.yaml().load(read(ChartRendering.CHART.resolve("values.yaml")));
        Pattern cited = Pattern.compile(
                "`((?:global|auth|app|border|tls|metrics|registry|serviceAccount|logging)(?:\\.[A-Za-z0-9\\[\\]]+)+)(?:[=:][^`]*)?`");
        List<String> unknown = new ArrayList<>();
        for (Path doc : docs()) {
            for (String path : matches(cited, read(doc))) {
                if (!NOT_VALUES.contains(path)
                        && !isKey(values, path.replaceAll("\\[\\d*]", "").split("\\."))) {
                    unknown.add(REPOSITORY.relativize(doc) + ": " + path);
                }
            }
        }
        assertThat(unknown).as("chart values cited but not in values.yaml").isEmpty();
    }

    /** A key path of the values; under a list or an empty map (free-form: policies, labels) anything goes. */
    @SuppressWarnings("unchecked")
    private static boolean isKey(Map<String, Object> values, String[] path) {
        Object node = values;
        for (String segment : path) {
            if (node instanceof List<?> || (node instanceof Map<?, ?> map && map.isEmpty())) {
                return true;
            }
            if (!(node instanceof Map<?, ?> map) || !map.containsKey(segment)) {
                return false;
            }
            node = ((Map<String, Object>) map).get(segment);
        }
        return true;
    }

    @Test
    void everyEgressPropertyTheDocsNameIsBoundByAService() {
        String sources = mainSources();
        Set<String> prefixes = matches(
                Pattern.compile("@ConfigurationProperties\\((?:prefix = |value = )?\"(egress[a-z0-9.-]*)\"\\)"),
                sources);
        // "(Was `old.name`.)" records a rename: the old name is meant to be gone.
        Pattern cited = Pattern.compile("(?<!Was )`(egress\\.[a-z0-9.-]*[a-z0-9])(?:[=: ][^`]*)?`");
        List<String> unknown = new ArrayList<>();
        for (Path doc : docs()) {
            for (String property : matches(cited, read(doc))) {
                if (!bound(property, prefixes, sources)) {
                    unknown.add(REPOSITORY.relativize(doc) + ": " + property);
                }
            }
        }
        assertThat(prefixes).hasSizeGreaterThan(8);
        assertThat(unknown)
                .as("egress.* properties cited but bound by no service")
                .isEmpty();
    }

    /**
     * Named literally in the sources (a condition, a message), or a bound prefix followed by names each of
     * which is a component of the sources (record components are the properties' camelCase names).
     */
    private static boolean bound(String property, Set<String> prefixes, String sources) {
        if (sources.contains("\"" + property + "\"") || prefixes.contains(property)) {
            return true;
        }
        String prefix = prefixes.stream()
                .filter(p -> property.startsWith(p + "."))
                .max((a, b) -> Integer.compare(a.length(), b.length()))
                .orElse(null);
        if (prefix == null) {
            return false;
        }
        for (String segment : property.substring(prefix.length() + 1).split("\\.")) {
            if (!Pattern.compile("\\b" + Pattern.quote(camel(segment)) + "\\b")
                    .matcher(sources)
                    .find()) {
                return false;
            }
        }
        return true;
    }

    private static String camel(String kebab) {
        StringBuilder out = new StringBuilder();
        boolean upper = false;
        for (char c : kebab.toCharArray()) {
            if (c == '-') {
                upper = true;
            } else {
                out.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return out.toString();
    }

    @Test
    void thePortsOfTheContractAreTheServicesDefaults() {
        String architecture = read(REPOSITORY.resolve("docs/architecture.md"));
        Matcher row = Pattern.compile("^\\| (App|Border) \\| `([a-z.-]+)` (\\d+) \\|", Pattern.MULTILINE)
                .matcher(architecture);
        List<String> checked = new ArrayList<>();
        while (row.find()) {
            String module = "App".equals(row.group(1)) ? "app-service" : "border-service";
            String property = row.group(2);
            String port = row.group(3);
            Path root = REPOSITORY.resolve(module).resolve("src/main");
            if ("server.port".equals(property)) {
                assertThat(read(root.resolve("resources/application.yml")))
                        .as("%s %s", module, property)
                        .containsPattern("(?m)^server:\\n(?:  .*\\n)*?  port: " + port + "$");
            } else {
                String name = camel(property.substring(property.lastIndexOf('.') + 1));
                String sources = String.join(
                        "\n",
                        files(root.resolve("java"), ".java").stream()
                                .map(DocsMatchCodeTest::read)
                                .toList());
                assertThat(sources)
                        .as("%s %s", module, property)
                        .containsPattern("@DefaultValue\\(\"" + port + "\"\\) (?:@\\w+ )*\\w+ " + name + "\\b");
            }
            checked.add(property);
        }
        assertThat(checked).contains("server.port", "egress.proxy.port");
    }

    @Test
    void theProjectIsApacheLicensedInItsLicenceNoticeAndPom() {
        assertThat(read(REPOSITORY.resolve("LICENSE")))
                .contains("Apache License", "Version 2.0, January 2004", "END OF TERMS AND CONDITIONS");
        assertThat(read(REPOSITORY.resolve("NOTICE"))).startsWith("egress-platform");
        assertThat(read(REPOSITORY.resolve("pom.xml")))
                .containsPattern("<licenses>\\s*<license>\\s*<name>Apache-2.0</name>");
        assertThat(read(REPOSITORY.resolve("README.md"))).contains("[`LICENSE`](LICENSE)");
    }
}
