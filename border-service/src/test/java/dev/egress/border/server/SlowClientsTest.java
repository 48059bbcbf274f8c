package dev.egress.border.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.border.testing.BorderTestProperties;
import dev.egress.border.testing.LocalBorderTest;
import dev.egress.border.testing.Tokens;
import dev.egress.discovery.web.forward.ForwardRequest;
import dev.egress.discovery.web.testing.RecordingSink;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.HttpProtocol;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/** Clients that send their request slowly are cut off; the Border keeps serving everyone else. */
@LocalBorderTest({
    "egress.border.id=border-slow",
    "egress.border.ips=127.0.0.2",
    BorderTestProperties.LOCAL,
    BorderTestProperties.LOOPBACK_TARGETS,
    // Short so that the test is quick; the default is 10 s.
    "egress.server.request-header-timeout=1500ms"
})
class SlowClientsTest {

    private static final int SLOW_CLIENTS = 500;

    @Autowired
    WebTestClient web;

    @LocalServerPort
    int port;

    @Test
    void closesConnectionsThatTrickleTheirHeadersWhileDeliveriesGoOn() throws Exception {
        ScheduledExecutorService trickle = Executors.newSingleThreadScheduledExecutor();
        List<SocketChannel> slow = new ArrayList<>();
        try (RecordingSink sink = RecordingSink.start()) {
            byte[] head = "GET /ops/v1/ips HTTP/1.1\r\nHost: border\r\n".getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < SLOW_CLIENTS; i++) {
                SocketChannel channel = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
                channel.configureBlocking(false);
                slow.add(channel);
            }
            // One header byte every 5 s per connection: far more often than any idle timer would allow.
            int[] sent = new int[SLOW_CLIENTS];
            trickle.scheduleAtFixedRate(
                    () -> {
                        for (int i = 0; i < SLOW_CLIENTS; i++) {
                            try {
                                slow.get(i).write(ByteBuffer.wrap(head, sent[i]++ % head.length, 1));
                            } catch (IOException closed) {
                                // Closed by the Border: that is the point.
                            }
                        }
                    },
                    0,
                    5,
                    TimeUnit.SECONDS);
            // And one that sends a byte every 200 ms: the deadline counts from the first byte, not from the last.
            AtomicBoolean fastTrickleClosed = new AtomicBoolean();
            Thread fast = new Thread(() -> fastTrickleClosed.set(trickleUntilClosed(head)), "fast-trickle");
            fast.setDaemon(true);
            fast.start();

            // Deliveries go on meanwhile.
            for (int i = 0; i < 3; i++) {
                web.post()
                        .uri("/internal/v1/egress")
                        .header("Authorization", "Bearer " + Tokens.INTERNAL)
                        .contentType(MediaType.APPLICATION_JSON)
                        .bodyValue(new ForwardRequest(
                                "d" + i, "127.0.0.2", sink.baseUri() + "/during-" + i, "POST", Map.of(), "{}"))
                        .exchange()
                        .expectStatus()
                        .isOk()
                        .expectBody()
                        .returnResult();
            }
            assertThat(sink.received()).hasSize(3);

            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .untilAsserted(() -> assertThat(slow.stream()
                                    .filter(SlowClientsTest::isOpen)
                                    .count())
                            .isZero());
            Awaitility.await().atMost(Duration.ofSeconds(30)).untilTrue(fastTrickleClosed);

            // And the Border still serves whole requests.
            web.get()
                    .uri("/actuator/health/liveness")
                    .exchange()
                    .expectStatus()
                    .isOk()
                    .expectBody()
                    .returnResult();
        } finally {
            trickle.shutdownNow();
            for (SocketChannel channel : slow) {
                channel.close();
            }
        }
    }

    @Test
    void anHttp2ConnectionIsNotCutByTheHeaderDeadlineWhileItsCallWaitsForASlowTarget() throws Exception {
        try (RecordingSink sink = RecordingSink.start()) {
            // Twice the header deadline: a deadline started by the h2c preface would close the connection under the
            // call.
            sink.reply(new RecordingSink.Reply(200, "slow", Duration.ofSeconds(3), Map.of()));
            String body = "{\"deliveryId\":\"h2\",\"sourceIp\":\"127.0.0.2\",\"url\":\"" + sink.baseUri()
                    + "/h2\",\"method\":\"POST\",\"headers\":{},\"body\":\"{}\"}";
            String[] version = new String[1];
            String answer = HttpClient.create()
                    .protocol(HttpProtocol.H2C)
                    .headers(h ->
                            h.set("Authorization", "Bearer " + Tokens.INTERNAL).set("Content-Type", "application/json"))
                    .post()
                    .uri("http://127.0.0.1:" + port + "/internal/v1/egress")
                    .send(ByteBufFlux.fromString(Mono.just(body)))
                    .responseSingle((response, content) -> {
                        version[0] = response.version().text() + " "
                                + response.status().code();
                        return content.asString();
                    })
                    .block(Duration.ofSeconds(30));

            assertThat(version[0]).isEqualTo("HTTP/2.0 200");
            assertThat(answer).contains("\"status\":200").contains("\"body\":\"slow\"");
            assertThat(sink.received()).hasSize(1);
        }
    }

    @Test
    void aBurstOfCancelledHttp2CallsDoesNotCloseTheConnectionOtherCallsShare() throws Exception {
        try (RecordingSink sink = RecordingSink.start()) {
            sink.reply(new RecordingSink.Reply(200, "kept", Duration.ofSeconds(15), Map.of()));
            ConnectionProvider one = ConnectionProvider.create("one-h2c", 1);
            try {
                HttpClient client = HttpClient.create(one)
                        .protocol(HttpProtocol.H2C)
                        .headers(h -> h.set("Authorization", "Bearer " + Tokens.INTERNAL)
                                .set("Content-Type", "application/json"));
                String body = "{\"deliveryId\":\"kept\",\"sourceIp\":\"127.0.0.2\",\"url\":\"" + sink.baseUri()
                        + "/kept\",\"method\":\"POST\",\"headers\":{},\"body\":\"{}\"}";
                var kept = client.post()
                        .uri("http://127.0.0.1:" + port + "/internal/v1/egress")
                        .send(ByteBufFlux.fromString(Mono.just(body)))
                        .responseSingle((response, content) ->
                                content.asString().map(text -> response.status().code() + " " + text))
                        .toFuture();
                Awaitility.await()
                        .atMost(Duration.ofSeconds(30))
                        .until(() -> sink.received().size() == 1);

                // 300 streams on the same connection whose bodies never end, then given up: 300 RST_STREAM frames,
                // as App sends when its clients leave. Netty's default guard closes the connection after 200. In
                // rounds of 90, since the connection carries 100 streams at a time.
                AtomicInteger opened = new AtomicInteger();
                for (int round = 1; round <= 4; round++) {
                    List<Disposable> abandoned = new ArrayList<>();
                    for (int i = 0; i < 90; i++) {
                        abandoned.add(client.doOnRequest((request, connection) -> opened.incrementAndGet())
                                .post()
                                .uri("http://127.0.0.1:" + port + "/internal/v1/egress")
                                .send(ByteBufFlux.fromString(Flux.never()))
                                .response()
                                .subscribe(r -> {}, e -> {}));
                    }
                    int expected = round * 90;
                    Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> opened.get() == expected);
                    abandoned.forEach(Disposable::dispose);
                }

                assertThat(kept.get(60, TimeUnit.SECONDS)).startsWith("200 ").contains("\"body\":\"kept\"");
            } finally {
                one.disposeLater().block(Duration.ofSeconds(10));
            }
        }
    }

    /** False while the Border still holds the connection: reading gives 0 bytes, not end-of-stream. */
    private static boolean isOpen(SocketChannel channel) {
        try {
            return channel.read(ByteBuffer.allocate(256)) >= 0;
        } catch (IOException reset) {
            return false;
        }
    }

    private boolean trickleUntilClosed(byte[] head) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(200);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            for (int i = 0; i < 300; i++) {
                out.write(head[i % head.length]);
                out.flush();
                try {
                    if (in.read() < 0) {
                        return true;
                    }
                } catch (SocketTimeoutException stillOpen) {
                    // Nothing to read yet: keep trickling (the 200 ms read wait paces the bytes).
                }
            }
            return false;
        } catch (IOException closed) {
            return true;
        }
    }
}
