package dev.egress.app.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.app.support.AppITSupport;
import dev.egress.discovery.web.testing.RawHttp;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * App's port keeps serving a kept-alive connection after a request that arrived while the previous one was
 * still finishing (the Border's {@code KeepAliveTest} has the story: Reactor Netty up to 1.3.7 stopped reading
 * such a connection, and a client's next delivery hung).
 */
class KeepAliveIT extends AppITSupport {

    @Test
    void answersTheNextRequestAfterARequestThatWaitedForThePreviousOne() throws IOException {
        // The scrape runs off the event loop, so the 401 (answered at once) waits behind it, buffered.
        List<String> answers = RawHttp.afterABufferedRequest(
                port, "/actuator/prometheus", "/v1/egress/ips", "/actuator/health/liveness");

        assertThat(answers.get(0)).startsWith("HTTP/1.1 200");
        assertThat(answers.get(1)).startsWith("HTTP/1.1 401");
        assertThat(answers.get(2)).startsWith("HTTP/1.1 200");
    }
}
