package dev.egress.app.resilience;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.app.support.AppITSupport;
import dev.egress.app.support.BorderDouble;
import dev.egress.discovery.web.testing.RecordingSink;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

/**
 * Per-Border circuit breakers from the shared base config: a Border whose calls keep failing opens its
 * breaker and is skipped without a call; when every candidate's breaker is open, 503.
 */
@TestPropertySource(
        properties = {
            "egress.routing.eject-after=1000", // keep passive health out of the way: this is about breakers
            "resilience4j.circuitbreaker.configs.default.minimum-number-of-calls=4",
            "resilience4j.circuitbreaker.configs.default.sliding-window-size=4",
            "resilience4j.circuitbreaker.configs.default.wait-duration-in-open-state=10m"
        })
class CircuitBreakerIT extends AppITSupport {

    @Autowired
    CircuitBreakerRegistry breakers;

    @Test
    void aFailingBorderOpensItsBreakerIsSkippedAndAllOpenIs503() throws Exception {
        try (RecordingSink sink = RecordingSink.start();
                BorderDouble a = BorderDouble.start("cb-a", INTERNAL_TOKEN, Duration.ofSeconds(2), "127.0.0.2");
                BorderDouble b = BorderDouble.start("cb-b", INTERNAL_TOKEN, Duration.ofSeconds(2), "127.0.0.3")) {
            publish(a.announcement(), b.announcement());
            a.failWith(new BorderDouble.Failure(503, "unavailable", false));
            String hook = sink.baseUri() + "/hook";

            for (int i = 0; i < 4; i++) {
                deliver("acme", hook)
                        .expectStatus()
                        .isOk()
                        .expectBody()
                        .jsonPath("$.borderId")
                        .isEqualTo("cb-b")
                        .jsonPath("$.attempts[0].outcome")
                        .isEqualTo("unavailable");
            }
            assertThat(breakers.circuitBreaker("border-cb-a").getState()).isEqualTo(CircuitBreaker.State.OPEN);
            int callsToA = a.calls();

            deliver("acme", hook)
                    .expectStatus()
                    .isOk()
                    .expectBody()
                    .jsonPath("$.borderId")
                    .isEqualTo("cb-b")
                    .jsonPath("$.attempts.length()")
                    .isEqualTo(1);
            assertThat(a.calls()).isEqualTo(callsToA);

            // Only the open-breaker Border is left for acme: nothing is sent, 503 with Retry-After.
            publish(a.announcement());
            deliver("acme", hook)
                    .expectStatus()
                    .isEqualTo(503)
                    .expectHeader()
                    .exists("Retry-After")
                    .expectBody()
                    .jsonPath("$.type")
                    .isEqualTo("urn:egress:problem:no-egress-available")
                    .jsonPath("$.attempts[0].outcome")
                    .isEqualTo("breaker-open");
            assertThat(a.calls()).isEqualTo(callsToA);
            assertThat(sink.received()).hasSize(5);
            publish();
        }
    }
}
