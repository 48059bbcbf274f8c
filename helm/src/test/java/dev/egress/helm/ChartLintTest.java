package dev.egress.helm;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ChartLintTest {

    @Test
    void chartPassesStrictLint() {
        LintResult result = new Helm(ChartRendering.CHART).lint().strict().call();

        assertThat(result.isFailed()).as("lint messages: %s", result.getMessages()).isFalse();
        assertThat(result.getMessages()).noneMatch(m -> m.contains("[ERROR]") || m.contains("[WARNING]"));
    }
}
