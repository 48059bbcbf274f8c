package dev.egress.border.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.border.testing.BorderTestProperties;
import dev.egress.border.testing.LocalBorderTest;
import dev.egress.discovery.web.testing.RawHttp;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.RepeatedTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A keep-alive connection goes on being served after a request that arrived while the previous one was still
 * finishing. Reactor Netty up to 1.3.7 buffered such a request, answered it, and then never read from the
 * connection again: the client's next request hung until its own timeout (seen as a 60 s WebTestClient
 * timeout in CI). Pipelining the first two requests makes that arrival order certain.
 */
@LocalBorderTest({
    "egress.border.id=border-keepalive",
    "egress.border.ips=127.0.0.2",
    BorderTestProperties.LOCAL,
    BorderTestProperties.OPERATOR
})
class KeepAliveTest {

    @LocalServerPort
    int port;

    @RepeatedTest(3)
    void answersTheNextRequestAfterARequestThatWaitedForThePreviousOne() throws IOException {
        // The scrape runs off the event loop, so the 401 (answered at once) waits behind it, buffered.
        List<String> answers =
                RawHttp.afterABufferedRequest(port, "/actuator/prometheus", "/ops/v1/ips", "/actuator/health/liveness");

        assertThat(answers.get(0)).startsWith("HTTP/1.1 200");
        assertThat(answers.get(1)).startsWith("HTTP/1.1 401");
        assertThat(answers.get(2)).startsWith("HTTP/1.1 200");
    }
}
