package dev.egress.app.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.app.support.AppITSupport;
import dev.egress.discovery.testing.RawHttp;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * App's port keeps serving a kept-alive connection after a request that arrived while the previous one was
 * still finishing (the Border's {@code KeepAliveTest} has the story: Reactor Netty up to 1.3.7 stopped reading
 * such a connection, and a client's next delivery hung).
 */
class KeepAliveIT extends AppITSupport {

    @Test
    void answersTheNextRequestAfterARequestThatWaitedForThePreviousOne() throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();

            // The scrape runs off the event loop, so the 401 (answered at once) waits behind it, buffered.
            out.write((RawHttp.get("/actuator/prometheus") + RawHttp.get("/v1/egress/ips"))
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(RawHttp.readResponse(in)).startsWith("HTTP/1.1 200");
            assertThat(RawHttp.readResponse(in)).startsWith("HTTP/1.1 401");

            out.write(RawHttp.get("/actuator/health/liveness").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(RawHttp.readResponse(in)).startsWith("HTTP/1.1 200");
        }
    }
}
