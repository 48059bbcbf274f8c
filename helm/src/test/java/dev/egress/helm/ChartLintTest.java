package dev.egress.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ChartLintTest {

    /**
     * helm lint takes no values files, and the chart refuses to render without its required values
     * (registry, images): lint a copy whose values.yaml has the test values (and an example) merged in.
     * Lint also renders NOTES.txt, which a template run does not.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"", "values-hostnetwork.yaml", "values-aws.yaml", "values-multus.yaml"})
    void chartWithItsRequiredValuesPassesStrictLint(String example, @TempDir Path work) throws IOException {
        Path chart = ChartRendering.copyOfChart(work, ChartRendering.resource("test-values.yaml"), null);
        if (!example.isEmpty()) {
            chart = ChartRendering.copyOfChart(Files.createDirectory(work.resolve("with-example")), null, null);
            ChartRendering.mergeValues(chart, ChartRendering.resource("test-values.yaml"));
            ChartRendering.mergeValues(chart, ChartRendering.EXAMPLES.resolve(example));
        }

        LintResult result = new Helm(chart).lint().strict().call();

        assertThat(result.isFailed())
                .as("lint messages: %s", result.getMessages())
                .isFalse();
        assertThat(result.getMessages()).noneMatch(m -> m.contains("[ERROR]") || m.contains("[WARNING]"));
    }

    /**
     * {@code helm lint --strict helm/egress-platform}, as docs/kubernetes.md shows it, on the chart as shipped:
     * lint turns the chart's {@code fail} checks for required values into INFO lines, so what renders around
     * them (an empty image reference, for one) must still be valid YAML.
     */
    @Test
    void theChartAsShippedPassesStrictLint() {
        LintResult result = new Helm(ChartRendering.CHART).lint().strict().call();

        assertThat(result.isFailed())
                .as("lint messages: %s", result.getMessages())
                .isFalse();
        assertThat(result.getMessages()).noneMatch(m -> m.contains("[ERROR]") || m.contains("[WARNING]"));
    }
}
