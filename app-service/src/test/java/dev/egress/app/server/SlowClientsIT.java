package dev.egress.app.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.app.support.AppITSupport;
import dev.egress.app.support.BorderDouble;
import dev.egress.discovery.web.testing.RawHttp;
import dev.egress.discovery.web.testing.RecordingSink;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;
import reactor.netty.tcp.TcpClient;

/**
 * Slow clients on App's port: connections that trickle their request are closed at the deadlines of
 * {@code egress.server.*} ({@code ServerDeadlines}) (short here, to keep the test fast), while deliveries go on.
 */
@TestPropertySource(properties = {"egress.server.request-header-timeout=2s", "egress.server.request-body-timeout=2s"})
class SlowClientsIT extends AppITSupport {

    private static final String HEADERS =
            "POST /v1/deliveries HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + "a".repeat(200) + "\r\n\r\n";

    private final List<Connection> connections = new ArrayList<>();
    private final List<Disposable> trickles = new ArrayList<>();
    private RecordingSink sink;
    private BorderDouble border;

    @BeforeEach
    void start() throws IOException {
        sink = RecordingSink.start();
        border = BorderDouble.start("slow-clients", INTERNAL_TOKEN, Duration.ofSeconds(5), "127.0.0.2", "127.0.0.8");
        publish(border.announcement());
    }

    @AfterEach
    void stop() {
        trickles.forEach(Disposable::dispose);
        connections.forEach(Connection::dispose);
        publish();
        border.close();
        sink.close();
    }

    private Connection open(AtomicInteger closed) {
        Connection connection =
                TcpClient.newConnection().host("127.0.0.1").port(port).connectNow(Duration.ofSeconds(30));
        connection.onDispose(closed::incrementAndGet);
        connections.add(connection);
        return connection;
    }

    /** Sends the text one byte per period, as long as the connection lives. */
    private void trickle(Connection connection, String text, Duration period) {
        trickles.add(Flux.interval(Duration.ZERO, period)
                .onBackpressureDrop()
                .take(text.length())
                .concatMap(i -> connection
                        .outbound()
                        .sendString(Mono.just(String.valueOf(text.charAt(i.intValue()))))
                        .then()
                        .onErrorResume(e -> Mono.empty()))
                .subscribe());
    }

    private String prometheus() {
        return client().get()
                .uri("/actuator/prometheus")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
    }

    @Test
    void fiveHundredConnectionsSendingAHeaderByteEveryFiveSecondsAreClosedWhileDeliveriesGoOn() {
        AtomicInteger closed = new AtomicInteger();
        for (int i = 0; i < 500; i++) {
            trickle(open(closed), HEADERS, Duration.ofSeconds(5));
        }

        for (int i = 0; i < 20; i++) {
            deliver(i % 2 == 0 ? "acme" : "small-co", sink.baseUri() + "/hook")
                    .expectStatus()
                    .isOk()
                    .expectBody()
                    .returnResult();
        }

        await().atMost(Duration.ofSeconds(60)).until(() -> closed.get() == 500);
        assertThat(sink.received()).hasSize(20);
        deliver("acme", sink.baseUri() + "/hook")
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult();
        assertThat(prometheus())
                .containsPattern("egress_server_request_header_timeouts_total(\\{[^}]*\\})? [1-9][0-9]{2,}");
    }

    @Test
    void aClientTricklingFasterThanAnyIdleLimitIsClosedAtTheHeaderDeadline() {
        AtomicInteger closed = new AtomicInteger();
        AtomicInteger sent = new AtomicInteger();
        Connection connection = open(closed);
        trickles.add(Flux.interval(Duration.ZERO, Duration.ofMillis(100))
                .onBackpressureDrop()
                .take(HEADERS.length())
                .concatMap(i -> connection
                        .outbound()
                        .sendString(Mono.just(String.valueOf(HEADERS.charAt(i.intValue()))))
                        .then()
                        .doOnSuccess(v -> sent.incrementAndGet())
                        .onErrorResume(e -> Mono.empty()))
                .subscribe());

        await().atMost(Duration.ofSeconds(20)).until(() -> closed.get() == 1);
        assertThat(sent.get()).as("closed before the headers were complete").isLessThan(HEADERS.length());
    }

    @Test
    void aClientTricklingItsBodyIsClosedAtTheBodyDeadline() {
        AtomicInteger closed = new AtomicInteger();
        Connection connection = open(closed);
        connection
                .outbound()
                .sendString(Mono.just("POST /v1/deliveries HTTP/1.1\r\nHost: 127.0.0.1\r\n" + "Authorization: Bearer "
                        + API_TOKEN + "\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"))
                .then()
                .block(Duration.ofSeconds(10));
        trickle(connection, "{" + " ".repeat(998) + "}", Duration.ofMillis(100));

        await().atMost(Duration.ofSeconds(20)).until(() -> closed.get() == 1);
        assertThat(sink.received()).isEmpty();
    }

    @Test
    void aKeptAliveConnectionOutlivesTheHeaderDeadlineBetweenRequests() throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(30_000);
            String request = "GET /actuator/health/liveness HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            assertThat(RawHttp.readResponse(socket.getInputStream())).startsWith("HTTP/1.1 200");

            // Longer than the header deadline, shorter than server.netty.idle-timeout: the wait between
            // requests is the idle timeout's business, not the header deadline's.
            await("the idle connection stays open and unanswered for 3 s")
                    .during(Duration.ofSeconds(3))
                    .atMost(Duration.ofSeconds(4))
                    .until(() -> openAndSilent(socket));

            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            assertThat(RawHttp.readResponse(socket.getInputStream())).startsWith("HTTP/1.1 200");
        }
    }

    /** Whether the server has neither written to nor closed the connection; consumes nothing it keeps. */
    private static boolean openAndSilent(Socket socket) throws IOException {
        socket.setSoTimeout(50);
        try {
            socket.getInputStream().read();
            return false; // a byte, or the end of the stream: either way the server acted
        } catch (SocketTimeoutException e) {
            return true;
        } finally {
            socket.setSoTimeout(30_000);
        }
    }
}
