package dev.egress.border.ssrf;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.discovery.web.problem.Problem;
import dev.egress.discovery.web.problem.ProblemType;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;

class DenialExceptionsTest {

    @Test
    void aDenialIsA403TargetDeniedProblemCarryingItsReason() {
        TargetDeniedException e =
                new TargetDeniedException(DenialReason.OWN_ADDRESS, "127.0.0.1 port 8181 is this Border");
        assertThat(e.reason()).isEqualTo(DenialReason.OWN_ADDRESS);
        assertThat(e.status()).isEqualTo(HttpStatus.FORBIDDEN);
        assertThat(e.slug()).isEqualTo(ProblemType.TARGET_DENIED.slug());
        assertThat(e.properties()).isEqualTo(Map.of(Problem.REASON, "OWN_ADDRESS"));
        assertThat(e.getMessage()).isEqualTo("127.0.0.1 port 8181 is this Border");
        assertThat(e.targetContacted()).isFalse();
    }

    @Test
    void aDnsFailureIsA502DnsFailedProblemNamingTheHost() {
        IOException cause = new IOException("boom");
        assertThat(DnsFailedException.timeout("hook.test", Duration.ofSeconds(4)))
                .hasMessageContaining("hook.test")
                .hasMessageContaining("PT4S")
                .satisfies(e -> assertThat(e.status()).isEqualTo(HttpStatus.BAD_GATEWAY))
                .satisfies(e -> assertThat(e.slug()).isEqualTo(ProblemType.DNS_FAILED.slug()))
                .satisfies(e -> assertThat(e.targetContacted()).isFalse());
        assertThat(DnsFailedException.noAnswer("hook.test", cause))
                .hasMessageContaining("hook.test")
                .hasCause(cause);
        assertThat(DnsFailedException.busy("hook.test", 7))
                .hasMessageContaining("7")
                .hasMessageContaining("hook.test");
        assertThat(DnsFailedException.failed("hook.test", cause))
                .hasMessageContaining("boom")
                .hasCause(cause);
    }
}
