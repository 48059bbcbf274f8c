package dev.egress.app.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.app.support.AppITSupport;
import dev.egress.app.support.BorderDouble;
import dev.egress.discovery.web.testing.RecordingSink;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

/** App holds a Border to the source IP of the route: another reported IP is a Border fault, not a delivery. */
class SourceIpCheckIT extends AppITSupport {

    private RecordingSink sink;
    private BorderDouble border;

    @BeforeEach
    void start() throws Exception {
        sink = RecordingSink.start();
        border = BorderDouble.start("border-liar", INTERNAL_TOKEN, Duration.ofSeconds(5), "127.0.0.2");
        publish(border.announcement());
    }

    @AfterEach
    void stop() {
        publish();
        border.close();
        sink.close();
    }

    private double faults() {
        String text = client().get()
                .uri("/actuator/prometheus")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        return text.lines()
                .filter(l -> l.startsWith("egress_border_faults_total{")
                        && l.contains("border=\"border-liar\"")
                        && l.contains("reason=\"source-ip-mismatch\""))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .sum();
    }

    @Test
    void aBorderReportingAnotherSourceIpIsABorderFaultNotADelivery() {
        deliver("acme", sink.baseUri() + "/hook")
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.egressIp")
                .isEqualTo("127.0.0.2");
        double before = faults();

        border.reportSourceIp("127.0.0.9");
        deliver("acme", sink.baseUri() + "/hook")
                .expectStatus()
                .isEqualTo(502)
                .expectHeader()
                .contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:border-fault")
                .jsonPath("$.targetContacted")
                .isEqualTo(true)
                .jsonPath("$.attempts.length()")
                .isEqualTo(1)
                .jsonPath("$.attempts[0].outcome")
                .isEqualTo("source-ip-mismatch")
                .jsonPath("$.detail")
                .value(detail -> assertThat((String) detail).contains("127.0.0.9", "127.0.0.2"));
        // Reached the target once (it may have been sent), and was not retried elsewhere.
        assertThat(sink.received()).hasSize(2);
        assertThat(faults()).isEqualTo(before + 1);

        border.reportSourceIp("not an ip\r\nforged log line");
        deliver("acme", sink.baseUri() + "/hook")
                .expectStatus()
                .isEqualTo(502)
                .expectBody()
                .jsonPath("$.detail")
                .value(detail ->
                        assertThat((String) detail).contains("no valid IP").doesNotContain("forged"));
        assertThat(faults()).isEqualTo(before + 2);
    }
}
