package dev.egress.helm;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * Renders the chart with the embedded Helm (helm-java) and parses the manifests, so tests can assert
 * on Kubernetes objects instead of text. Every render starts from {@code test-values.yaml}.
 */
final class ChartRendering {

    static final Path CHART = Path.of("egress-platform").toAbsolutePath();
    static final Path EXAMPLES = CHART.resolve("examples");
    static final String RELEASE = "egress";
    static final String NAMESPACE = "egress";
    static final String KUBE_VERSION = "v1.31.0";
    /** Resource name prefix for release {@link #RELEASE}. */
    static final String PREFIX = "egress-egress-platform";

    private ChartRendering() {}

    /** Starts a render of the chart with the test base values; add more with the returned builder. */
    static Render render() {
        return new Render(CHART, true);
    }

    /** Starts a render of the chart with nothing but its own values.yaml (what a first-time user gets). */
    static Render bare() {
        return new Render(CHART, false);
    }

    /** Starts a render of another copy of the chart (see {@link #copyOfChart}) with the test base values. */
    static Render render(Path chart) {
        return new Render(chart, true);
    }

    /**
     * Copies the chart into {@code work}; with {@code mergedValues}, that file is deep-merged into the copy's
     * values.yaml; with {@code version}, Chart.yaml's version and appVersion become it.
     */
    @SuppressWarnings("unchecked")
    static Path copyOfChart(Path work, Path mergedValues, String version) {
        Path copy = work.resolve(CHART.getFileName());
        try (Stream<Path> files = Files.walk(CHART)) {
            for (Path source : files.toList()) {
                Path target = copy.resolve(CHART.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target);
                }
            }
            if (mergedValues != null) {
                mergeValues(copy, mergedValues);
            }
            if (version != null) {
                Map<String, Object> chart = yaml().load(read(copy.resolve("Chart.yaml")));
                chart.put("version", version);
                chart.put("appVersion", version);
                Files.writeString(copy.resolve("Chart.yaml"), yaml().dump(chart));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return copy;
    }

    /** Deep-merges a values file into the values.yaml of a chart copy. */
    static void mergeValues(Path chart, Path values) {
        Map<String, Object> merged = yaml().load(read(chart.resolve("values.yaml")));
        merge(merged, yaml().load(read(values)));
        try {
            Files.writeString(chart.resolve("values.yaml"), yaml().dump(merged));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static void merge(Map<String, Object> into, Map<String, Object> from) {
        for (Map.Entry<String, Object> e : from.entrySet()) {
            if (e.getValue() instanceof Map<?, ?> child && into.get(e.getKey()) instanceof Map<?, ?> existing) {
                merge((Map<String, Object>) existing, (Map<String, Object>) child);
            } else {
                into.put(e.getKey(), e.getValue());
            }
        }
    }

    /** A render in the making: values files and --set pairs, applied in order. */
    static final class Render {
        private final Path chart;
        private final List<Path> valuesFiles = new ArrayList<>();
        private final Map<String, Object> sets = new LinkedHashMap<>();

        private Render(Path chart, boolean testValues) {
            this.chart = chart;
            if (testValues) {
                valuesFiles.add(resource("test-values.yaml"));
            }
        }

        Render values(Path file) {
            valuesFiles.add(file);
            return this;
        }

        Render example(String name) {
            return values(EXAMPLES.resolve(name));
        }

        /** A --set pair; a null value drops an earlier --set of that key. */
        Render set(String key, Object value) {
            sets.put(key, value);
            return this;
        }

        /** Runs helm template; throws IllegalStateException with Helm's message when rendering fails. */
        String text() {
            TemplateCommand command = new Helm(chart)
                    .template()
                    .withName(RELEASE)
                    .withNamespace(NAMESPACE)
                    .withKubeVersion(KUBE_VERSION);
            for (Path file : valuesFiles) {
                command = command.withValuesFile(file);
            }
            for (Map.Entry<String, Object> set : sets.entrySet()) {
                if (set.getValue() != null) {
                    command = command.set(set.getKey(), set.getValue());
                }
            }
            return command.call();
        }

        Manifests manifests() {
            return Manifests.parse(text());
        }
    }

    static Path resource(String name) {
        try {
            return Path.of(Objects.requireNonNull(ChartRendering.class.getResource("/" + name), name)
                    .toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static Yaml yaml() {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        return new Yaml(options);
    }
}
