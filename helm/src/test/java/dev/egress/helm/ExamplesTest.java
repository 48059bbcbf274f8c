package dev.egress.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every shipped values example is a complete install on its own: rendered and linted with nothing but the
 * chart's values.yaml underneath (no test base), exactly as the {@code helm install -f} line printed in the
 * file runs it.
 */
class ExamplesTest {

    private static final Path REPOSITORY = ChartRendering.CHART.getParent().getParent();
    private static final Pattern INSTALL_LINE =
            Pattern.compile("^#\\s+helm install (\\S+) (\\S+) -n (\\S+) -f (\\S+)$", Pattern.MULTILINE);

    static List<String> examples() throws IOException {
        try (Stream<Path> files = Files.list(ChartRendering.EXAMPLES)) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith("values-") && n.endsWith(".yaml"))
                    .sorted()
                    .toList();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void anExampleAloneRendersBordersAndAppThatFitTheApiSchema(String example) {
        Manifests manifests = ChartRendering.bare().example(example).manifests();

        assertThat(manifests.ofKind("StatefulSet")).isNotEmpty();
        assertThat(manifests.ofKind("Deployment")).isNotEmpty();
        assertThat(manifests.objects()).allSatisfy(KubernetesApiSchema::validate);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void theInstallLineInAnExampleNamesTheChartAndTheFileItself(String example) {
        String text = ChartRendering.read(ChartRendering.EXAMPLES.resolve(example));
        Matcher line = INSTALL_LINE.matcher(text);

        assertThat(line.find())
                .as("a `helm install ... -f` line in %s", example)
                .isTrue();
        assertThat(REPOSITORY.resolve(line.group(2)).normalize()).isEqualTo(ChartRendering.CHART);
        assertThat(REPOSITORY.resolve(line.group(4)).normalize()).isEqualTo(ChartRendering.EXAMPLES.resolve(example));
    }

    /**
     * An example that brings its own token Secret ({@code auth.existingSecret}) shows how to create it with
     * every key any pod of that example mounts from it; a key left out keeps those pods from starting.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void anExampleWithItsOwnTokenSecretCreatesItWithEveryKeyThePodsMount(String example) {
        String text = ChartRendering.read(ChartRendering.EXAMPLES.resolve(example));
        Manifests manifests = ChartRendering.bare().example(example).manifests();
        Set<String> mounted = new TreeSet<>();
        for (Map<String, Object> workload : manifests.objects()) {
            if (!List.of("Deployment", "StatefulSet").contains(workload.get("kind"))) {
                continue;
            }
            List<Map<String, Object>> volumes = Manifests.at(Manifests.podSpec(workload), "volumes");
            for (Map<String, Object> volume : volumes) {
                Map<String, Object> secret = Manifests.at(volume, "secret");
                if (secret != null && "egress-tokens".equals(secret.get("secretName"))) {
                    Manifests.<List<Map<String, Object>>>at(secret, "items")
                            .forEach(item -> mounted.add((String) item.get("key")));
                }
            }
        }
        Set<String> created = new TreeSet<>();
        Matcher key = Pattern.compile("--from-(?:literal|file)=([a-z-]+)=").matcher(text);
        while (key.find()) {
            created.add(key.group(1));
        }

        assertThat(text).contains("existingSecret: egress-tokens");
        assertThat(mounted).contains("accepted-internal-tokens", "api-tokens");
        assertThat(created)
                .as("keys the example's `kubectl create secret` line sets")
                .containsAll(mounted);
    }

    /**
     * {@code helm lint --strict -f <example>}, as docs/kubernetes.md documents it: the embedded Helm's lint
     * takes no values file, so the example is merged into a copy's values.yaml, which is what -f does.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void anExampleAlonePassesStrictLint(String example, @TempDir Path work) {
        Path chart = ChartRendering.copyOfChart(work, ChartRendering.EXAMPLES.resolve(example), null);

        LintResult result = new Helm(chart).lint().strict().call();

        assertThat(result.isFailed())
                .as("lint messages: %s", result.getMessages())
                .isFalse();
        assertThat(result.getMessages()).noneMatch(m -> m.contains("[ERROR]") || m.contains("[WARNING]"));
    }
}
