package dev.egress.app.status;

import dev.egress.app.support.AppITSupport;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

/** Readiness waits for the first routing snapshot; liveness never depends on the registry. */
@TestPropertySource(properties = "egress.routing.retry-after=7s") // a context of its own: the table starts empty
class ReadinessIT extends AppITSupport {

    @Test
    void readinessIsDownUntilTheFirstSnapshotAndLivenessIsUpThroughout() {
        WebTestClient probes = WebTestClient.bindToServer()
                .baseUrl("http://127.0.0.1:" + port)
                .responseTimeout(Duration.ofSeconds(30))
                .build();
        probes.get()
                .uri("/actuator/health/liveness")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult();
        probes.get()
                .uri("/actuator/health/readiness")
                .exchange()
                .expectStatus()
                .isEqualTo(503)
                .expectBody()
                .jsonPath("$.status")
                .isEqualTo("DOWN");

        publish();

        probes.get()
                .uri("/actuator/health/readiness")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.status")
                .isEqualTo("UP")
                .jsonPath("$.components.routing.details.ageMillis")
                .isNumber();
        probes.get()
                .uri("/actuator/health/liveness")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult();
    }
}
