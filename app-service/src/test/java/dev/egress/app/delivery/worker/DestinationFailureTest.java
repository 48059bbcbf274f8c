package dev.egress.app.delivery.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.app.delivery.AttemptOutcome;
import dev.egress.discovery.web.problem.ProblemType;
import org.junit.jupiter.api.Test;

class DestinationFailureTest {

    @Test
    void onlyTheHostsOwnFailuresCountTowardsItsBackOff() {
        assertThat(DurableAttempts.destinationFailed(new AttemptOutcome.Answered(503, null)))
                .isTrue();
        assertThat(DurableAttempts.destinationFailed(new AttemptOutcome.Answered(429, "5")))
                .isTrue();
        assertThat(DurableAttempts.destinationFailed(new AttemptOutcome.Answered(200, null)))
                .isFalse();
        assertThat(DurableAttempts.destinationFailed(new AttemptOutcome.Answered(410, null)))
                .as("it answered")
                .isFalse();
        assertThat(DurableAttempts.destinationFailed(new AttemptOutcome.Failed(ProblemType.TARGET_TIMEOUT)))
                .isTrue();
        assertThat(DurableAttempts.destinationFailed(new AttemptOutcome.Failed(ProblemType.TARGET_UNREACHABLE)))
                .isTrue();
        assertThat(DurableAttempts.destinationFailed(new AttemptOutcome.Failed(ProblemType.NO_EGRESS_AVAILABLE)))
                .as("the tenant's IPs, not the host")
                .isFalse();
        assertThat(DurableAttempts.destinationFailed(new AttemptOutcome.Failed(ProblemType.BORDER_ERROR)))
                .isFalse();
    }
}
