package dev.egress.discovery.web.boot;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;

class PropertyFailureAnalyzerTest {

    private final PropertyFailureAnalyzer analyzer = new PropertyFailureAnalyzer();

    @Test
    void reportsThePropertyAndItsRuleFromDeepInTheBeanChain() {
        IllegalArgumentException cause = new IllegalArgumentException(
                "egress.routing.strategy (or egress.routing.weights): strategy: 'random' (expected: one of [...])");
        Throwable failure = new BeanCreationException(
                "deliveryController",
                new BeanCreationException("dispatcher", new BeanCreationException("egressRouter", cause)));

        FailureAnalysis analysis = analyzer.analyze(failure);

        assertThat(analysis.getDescription())
                .isEqualTo("Invalid configuration: " + cause.getMessage())
                .doesNotContain("BeanCreationException");
        assertThat(analysis.getAction()).contains("docs/configuration");
        assertThat(analysis.getCause()).isSameAs(cause);
    }

    @Test
    void leavesFailuresThatNameNoPropertyToBoot() {
        assertThat(analyzer.analyze(new BeanCreationException("x", new IllegalStateException("port in use"))))
                .isNull();
        assertThat(analyzer.analyze(new BeanCreationException("egress.x: a bean name, not our message")))
                .isNull();
        assertThat(analyzer.analyze(new RuntimeException("egress.something", null)))
                .isNull();
    }
}
