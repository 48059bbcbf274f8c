package dev.egress.helm;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

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

    private ChartRendering() {
    }

    /** Starts a render of the chart with the test base values; add more with the returned builder. */
    static Render render() {
        return new Render();
    }

    /** A render in the making: values files and --set pairs, applied in order. */
    static final class Render {
        private final List<Path> valuesFiles = new ArrayList<>(List.of(resource("test-values.yaml")));
        private final Map<String, Object> sets = new LinkedHashMap<>();

        Render values(Path file) {
            valuesFiles.add(file);
            return this;
        }

        Render example(String name) {
            return values(EXAMPLES.resolve(name));
        }

        Render set(String key, Object value) {
            sets.put(key, value);
            return this;
        }

        /** Runs helm template; throws IllegalStateException with Helm's message when rendering fails. */
        String text() {
            TemplateCommand command = new Helm(CHART).template()
                    .withName(RELEASE)
                    .withNamespace(NAMESPACE)
                    .withKubeVersion(KUBE_VERSION);
            for (Path file : valuesFiles) {
                command = command.withValuesFile(file);
            }
            for (Map.Entry<String, Object> set : sets.entrySet()) {
                command = command.set(set.getKey(), set.getValue());
            }
            return command.call();
        }

        Manifests manifests() {
            return Manifests.parse(text());
        }
    }

    static Path resource(String name) {
        try {
            return Path.of(Objects.requireNonNull(ChartRendering.class.getResource("/" + name), name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static Yaml yaml() {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        return new Yaml(options);
    }
}
