package dev.egress.discovery.web.problem;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.discovery.web.testing.FrameworkErrorTable;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/** The shared table through the shared advice alone; each service's advice test runs it again. */
class FrameworkProblemsTest {

    @RestControllerAdvice
    static final class Advice extends ProblemAdviceSupport {
        Advice() {
            super(new FrameworkProblems(null));
        }

        @Override
        protected Problem unexpectedProblem() {
            return Problem.of(ProblemType.INTERNAL, "bug");
        }
    }

    static Stream<FrameworkErrorTable.Row> rows() {
        return FrameworkErrorTable.rows();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void mapsEachFrameworkErrorToItsStatusAndType(FrameworkErrorTable.Row row) {
        assertThat(FrameworkErrorTable.answer(row, new Advice()).has("targetContacted"))
                .isFalse();
        assertThat(ProblemType.ofSlug(row.slug())).as("in the catalogue").isNotNull();
    }
}
