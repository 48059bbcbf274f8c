package dev.egress.app.attempts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.discovery.web.problem.Problem;
import dev.egress.discovery.web.problem.TargetContact;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The table from a delivery's last attempt to the client's problem, row by row. */
class AttemptProblemsTest {

    private final AttemptProblems problems =
            new AttemptProblems(Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(2));

    @ParameterizedTest(name = "Border {0} {1} contacted={2} -> {4} {5}")
    @CsvSource(
            nullValues = "-",
            value = {
                // border status, border slug, contacted, border reason -> status, slug, targetContacted, reason,
                // Retry-After
                "400, invalid-request,       false, -,                  400, invalid-request,     false, -,                   false",
                "403, target-denied,         false, DENIED_RANGE,       403, target-denied,       false, DENIED_RANGE,        false",
                "403, target-denied,         false, -,                  403, target-denied,       false, -,                   false",
                "413, payload-too-large,     false, -,                  413, payload-too-large,   false, -,                   false",
                "502, target-unreachable,    false, connection-refused, 502, target-unreachable,  false, connection-refused,  false",
                "502, dns-failed,            false, -,                  502, dns-failed,          false, -,                   false",
                "502, target-protocol-error, true,  malformed-response, 502, target-protocol-error, true, malformed-response, false",
                "502, from-a-newer-border,   true,  -,                  502, target-unreachable,  true,  -,                   false",
                "504, target-timeout,        true,  response-timeout,   504, target-timeout,      true,  response-timeout,    false",
                "404, ip-not-hosted,         false, -,                  503, no-egress-available, false, borders-unavailable, true",
                "409, ip-not-active,         false, -,                  503, no-egress-available, false, borders-unavailable, true",
                "429, too-many-requests,     false, -,                  429, too-many-requests,   false, -,                   true",
                "500, unavailable,           false, -,                  503, no-egress-available, false, borders-unavailable, true",
                "503, unavailable,           true,  -,                  502, border-error,        true,  -,                   false",
                "500, unavailable,           true,  -,                  502, border-error,        true,  -,                   false",
                "401, unauthorized,          false, -,                  503, unavailable,         false, -,                   true",
                "418, -,                     false, -,                  502, border-error,        false, -,                   false",
                "418, -,                     true,  -,                  502, border-error,        true,  -,                   false"
            })
    void mapsABordersProblemAnswer(
            int borderStatus,
            String borderSlug,
            boolean contacted,
            String borderReason,
            int status,
            String slug,
            boolean targetContacted,
            String reason,
            boolean retryAfter) {
        AttemptResult result = new AttemptResult(
                AttemptResult.Kind.BORDER_PROBLEM,
                borderStatus,
                borderSlug,
                contacted,
                borderReason,
                "the Border's detail",
                null,
                5);
        assertProblem(problems.failure(result, "acme"), status, slug, targetContacted, reason, retryAfter);
    }

    @ParameterizedTest(name = "{0} contacted={1} -> {2} {3}")
    @CsvSource({
        "ATTEMPT_TIMEOUT,    true,  504, target-timeout, true",
        "SOURCE_IP_MISMATCH, true,  502, border-fault,   true",
        "BORDER_ERROR,       true,  502, border-error,   true"
    })
    void mapsAFailedCall(AttemptResult.Kind kind, boolean contacted, int status, String slug, boolean targetContacted) {
        AttemptResult result = AttemptResult.failed(kind, contacted, "what happened", 5);
        assertProblem(problems.failure(result, "acme"), status, slug, targetContacted, null, false);
    }

    @Test
    void anAttemptTimeoutAndTheOverallTimeoutNameTheirBounds() {
        assertThat(problems.failure(AttemptResult.failed(AttemptResult.Kind.ATTEMPT_TIMEOUT, true, "x", 5), "acme")
                        .detail())
                .isEqualTo("no answer within PT10S");
        assertThat(problems.overallTimeout().detail()).isEqualTo("no answer within PT30S");
        assertThat(problems.overallTimeout().targetContact()).isEqualTo(TargetContact.POSSIBLE);
    }

    @Test
    void noBorderTakingTheDeliveryNamesTheTenant() {
        Problem problem = problems.exhausted(null, "acme");
        assertProblem(problem, 503, "no-egress-available", false, "borders-unavailable", true);
        assertThat(problem.detail()).contains("'acme'");
    }

    private static void assertProblem(
            Problem problem, int status, String slug, boolean targetContacted, String reason, boolean retryAfter) {
        assertThat(problem.status().value()).isEqualTo(status);
        assertThat(problem.slug()).isEqualTo(slug);
        assertThat(problem.targetContact()).isEqualTo(TargetContact.of(targetContacted));
        assertThat(problem.reason() == null ? null : problem.reason().code()).isEqualTo(reason);
        assertThat(problem.retryAfter()).isEqualTo(retryAfter ? Duration.ofSeconds(2) : null);
    }
}
