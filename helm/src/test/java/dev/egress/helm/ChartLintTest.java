package dev.egress.helm;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class ChartLintTest {

    @Test
    void chartWithItsRequiredValuesPassesStrictLint(@TempDir Path work) {
        // helm lint takes no values files, and the chart refuses to render without the required values
        // (registry, images): lint a copy whose values.yaml has the test values merged in.
        Path chart = ChartRendering.copyOfChart(work, ChartRendering.resource("test-values.yaml"), null);

        LintResult result = new Helm(chart).lint().strict().call();

        assertThat(result.isFailed()).as("lint messages: %s", result.getMessages()).isFalse();
        assertThat(result.getMessages()).noneMatch(m -> m.contains("[ERROR]") || m.contains("[WARNING]"));
    }
}
