package dev.egress.border;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.discovery.web.testing.FrameworkErrorTable;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/** Border answers the framework's errors as App does, and states on each that nothing reached a target. */
class ProblemAdviceTest {

    static Stream<FrameworkErrorTable.Row> rows() {
        return FrameworkErrorTable.rows();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void answersEachFrameworkErrorWithTheSharedStatusAndTypeAndNoTargetContact(FrameworkErrorTable.Row row) {
        JsonNode body = FrameworkErrorTable.answer(row, new ProblemAdvice());
        assertThat(body.get("targetContacted").booleanValue()).as(row.name()).isFalse();
    }

    @Test
    void anUnknownPathNamesTheCall() {
        JsonNode body = FrameworkErrorTable.answer(
                FrameworkErrorTable.rows().findFirst().orElseThrow(), new ProblemAdvice());
        assertThat(body.get("detail").stringValue()).isEqualTo("no endpoint answers GET /nowhere");
    }

    @Test
    void aBugIsA500UnavailableThatMayHaveReachedTheTarget() {
        FrameworkErrorTable.client(new ProblemAdvice())
                .get()
                .uri("/throw/bug")
                .exchange()
                .expectStatus()
                .isEqualTo(500)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:unavailable")
                .jsonPath("$.detail")
                .isEqualTo("internal error")
                .jsonPath("$.targetContacted")
                .isEqualTo(true);
    }
}
