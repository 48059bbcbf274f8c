package dev.egress.border.server;

import static dev.egress.border.server.H2Wire.CONTINUATION;
import static dev.egress.border.server.H2Wire.END_HEADERS;
import static dev.egress.border.server.H2Wire.END_STREAM;
import static dev.egress.border.server.H2Wire.HEADERS;
import static dev.egress.border.server.H2Wire.PING;
import static dev.egress.border.server.H2Wire.frame;
import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.border.testing.BorderTestProperties;
import dev.egress.border.testing.LocalBorderTest;
import dev.egress.border.testing.Tokens;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import reactor.core.publisher.Mono;
import reactor.netty.http.HttpProtocol;
import reactor.netty.http.client.HttpClient;

/**
 * The header deadline for HTTP/2 on the Border's port (h2c with prior knowledge here; h2 by ALPN goes
 * through the same guard, see {@link Http2GuardTlsTest}), spoken frame by frame over a real socket: a header
 * block that does not complete within the deadline closes the connection however steadily its bytes trickle
 * in, while complete frames keep a connection open past the deadline.
 */
@LocalBorderTest({
    "egress.border.id=border-h2",
    "egress.border.ips=127.0.0.2",
    BorderTestProperties.LOCAL,
    BorderTestProperties.OPERATOR,
    "egress.server.request-header-timeout=1500ms"
})
class Http2GuardTest {

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry meters;

    private H2Wire open() throws IOException {
        return new H2Wire(new Socket("127.0.0.1", port), port);
    }

    private double closed(String reason) {
        return meters.get("egress.server.http2.closed")
                .tag("reason", reason)
                .counter()
                .count();
    }

    @Test
    void closesAConnectionWhoseHeaderBlockTricklesPastTheDeadline() throws Exception {
        double before = closed("header-timeout");
        ScheduledExecutorService trickle = Executors.newSingleThreadScheduledExecutor();
        try (H2Wire h2 = open()) {
            byte[] block = h2.headerBlock(1);
            OutputStream out = h2.out();
            out.write(frame(HEADERS, END_STREAM, 1, new byte[] {block[0]}));
            out.flush();
            // One more byte of the block every 400 ms (fewer frames than Netty's own limit on small
            // CONTINUATIONs): the block would take seconds, each byte long before any idle timer runs out.
            AtomicInteger next = new AtomicInteger(1);
            trickle.scheduleAtFixedRate(
                    () -> {
                        int i = next.getAndIncrement();
                        if (i < block.length) {
                            int flags = i == block.length - 1 ? END_HEADERS : 0;
                            try {
                                out.write(frame(CONTINUATION, flags, 1, new byte[] {block[i]}));
                                out.flush();
                            } catch (IOException closedByBorder) {
                                // what the test waits for
                            }
                        }
                    },
                    400,
                    400,
                    TimeUnit.MILLISECONDS);
            long start = System.nanoTime();

            assertThat(h2.readUntilClosed(Duration.ofSeconds(20)))
                    .as("closed without an answer to the stream")
                    .doesNotContain(HEADERS);
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .isBetween(Duration.ofMillis(1000), Duration.ofSeconds(10));
            assertThat(block.length * 400L)
                    .as("the trickle would outlast the deadline")
                    .isGreaterThan(3000);
        } finally {
            trickle.shutdownNow();
        }
        assertThat(closed("header-timeout")).isEqualTo(before + 1);
    }

    @Test
    void answersAHeaderBlockSplitAcrossFramesThatCompletesInTime() throws Exception {
        try (H2Wire h2 = open()) {
            byte[] block = h2.headerBlock(1);
            OutputStream out = h2.out();
            out.write(frame(HEADERS, END_STREAM, 1, Arrays.copyOfRange(block, 0, 1)));
            out.write(frame(CONTINUATION, 0, 1, Arrays.copyOfRange(block, 1, block.length / 2)));
            out.write(frame(CONTINUATION, END_HEADERS, 1, Arrays.copyOfRange(block, block.length / 2, block.length)));
            out.flush();

            assertThat(h2.readUntil(HEADERS)).as("the response's HEADERS frame").endsWith("found");
        }
    }

    @Test
    void keepsAnH2cConnectionOpenPastTheHeaderDeadlineWhileItsFramesAreComplete() throws Exception {
        ScheduledExecutorService pinger = Executors.newSingleThreadScheduledExecutor();
        try (H2Wire h2 = open()) {
            OutputStream out = h2.out();
            // A PING every 300 ms for about 3 s, twice the header deadline, on one connection: complete frames
            // never start the clock, however long the connection lives.
            pinger.scheduleAtFixedRate(
                    () -> {
                        try {
                            out.write(H2Wire.ping("keepopen"));
                            out.flush();
                        } catch (IOException closed) {
                            // seen by the reader below
                        }
                    },
                    0,
                    300,
                    TimeUnit.MILLISECONDS);
            long start = System.nanoTime();
            for (int acks = 0; acks < 10; acks++) {
                assertThat(h2.readUntil(PING))
                        .as("PING acknowledgement %d", acks + 1)
                        .endsWith("found");
            }
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(Duration.ofMillis(2500));
        } finally {
            pinger.shutdownNow();
        }
    }

    @Test
    void servesAnOrdinaryHttp2ClientWithPriorKnowledge() {
        HttpClient client = HttpClient.create().protocol(HttpProtocol.H2C).baseUrl("http://127.0.0.1:" + port);
        for (int i = 0; i < 20; i++) {
            Integer status = client.headers(h -> h.set("Authorization", "Bearer " + Tokens.OPERATOR))
                    .get()
                    .uri("/ops/v1/ips")
                    .responseSingle((response, body) ->
                            body.then(Mono.just(response.status().code())))
                    .block(Duration.ofSeconds(30));
            assertThat(status).isEqualTo(200);
        }
    }
}
