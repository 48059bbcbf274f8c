package dev.egress.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.discovery.web.testing.FrameworkErrorTable;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/** App answers the framework's errors as Border does; its problems about a request state nothing about a target. */
class ProblemAdviceTest {

    static Stream<FrameworkErrorTable.Row> rows() {
        return FrameworkErrorTable.rows();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void answersEachFrameworkErrorWithTheSharedStatusAndType(FrameworkErrorTable.Row row) {
        JsonNode body = FrameworkErrorTable.answer(row, new ProblemAdvice());
        assertThat(body.has("targetContacted")).as(row.name()).isFalse();
    }

    @Test
    void anUnknownPathPointsAtTheApiDescription() {
        JsonNode body = FrameworkErrorTable.answer(
                FrameworkErrorTable.rows().findFirst().orElseThrow(), new ProblemAdvice());
        assertThat(body.get("detail").stringValue())
                .isEqualTo("no endpoint answers GET /nowhere (the API is described at /v3/api-docs)");
    }

    @Test
    void aBugIsA500InternalWithoutInternals() {
        FrameworkErrorTable.client(new ProblemAdvice())
                .get()
                .uri("/throw/bug")
                .exchange()
                .expectStatus()
                .isEqualTo(500)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:internal")
                .jsonPath("$.detail")
                .isEqualTo("unexpected server error");
    }
}
