package dev.egress.app.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The proxy's first phase on a real listener: what it refuses before any lookup, and what an unauthenticated sender
 * can hold of it. Every request here is answered before a tunnel is asked for.
 */
class ProxyHeadTest {

    private final AtomicInteger lookups = new AtomicInteger();
    private final ListAppender<ILoggingEvent> refusals = new ListAppender<>();
    private final List<Socket> sockets = new ArrayList<>();
    private ProxyServer server;

    @BeforeEach
    void start() {
        server = new ProxyServer(TestProxyContexts.of(new SimpleMeterRegistry(), lookups), null);
        server.start();
        refusals.start();
        ((Logger) LoggerFactory.getLogger(Refused.LOG)).addAppender(refusals);
    }

    @AfterEach
    void stop() throws IOException {
        ((Logger) LoggerFactory.getLogger(Refused.LOG)).detachAppender(refusals);
        for (Socket socket : sockets) {
            socket.close();
        }
        server.stop();
    }

    private Socket connect(String from) throws IOException {
        Socket socket = new Socket();
        sockets.add(socket);
        socket.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
        socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 2000);
        socket.setSoTimeout(5000);
        return socket;
    }

    private static String send(Socket socket, String head) throws IOException {
        socket.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
        return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }

    private static String credentials(String userAndToken) {
        return "Proxy-Authorization: Basic "
                + Base64.getEncoder().encodeToString(userAndToken.getBytes(StandardCharsets.UTF_8)) + "\r\n";
    }

    @Test
    void aTargetThatIsNotAHostAndAPortIs400BeforeAnyLookup() throws IOException {
        for (String target : List.of("127.0.0.1#x:9999", "evil.com#.example.test:9999", "a@example.com:443")) {
            String answer = send(
                    connect("127.0.0.2"),
                    "CONNECT " + target + " HTTP/1.1\r\nHost: x\r\n" + credentials(":" + TestProxyContexts.TOKEN)
                            + "\r\n");

            assertThat(answer).as(target).startsWith("HTTP/1.1 400").contains("urn:egress:problem:invalid-request");
        }
        assertThat(lookups).as("no destination claim was looked up").hasValue(0);
    }

    @Test
    void aPortWebhooksDoNotUseIs403BeforeAnyLookupUnlessTheOperatorAddedIt() throws IOException {
        for (String target : List.of("mail.example.com:25", "127.0.0.1:9999")) {
            String answer = send(
                    connect("127.0.0.2"),
                    "CONNECT " + target + " HTTP/1.1\r\nHost: x\r\n" + credentials(":" + TestProxyContexts.TOKEN)
                            + "\r\n");

            assertThat(answer)
                    .as(target)
                    .startsWith("HTTP/1.1 403")
                    .contains("urn:egress:problem:target-denied")
                    .contains("port-not-allowed");
        }
        assertThat(lookups).as("no destination claim was looked up").hasValue(0);

        ProxyServer added = new ProxyServer(
                TestProxyContexts.of(new SimpleMeterRegistry(), lookups, List.of("25", "9000-9999")), null);
        added.start();
        try {
            for (String target : List.of("mail.example.com:25", "127.0.0.1:9999")) {
                Socket socket = new Socket();
                sockets.add(socket);
                socket.connect(new InetSocketAddress("127.0.0.1", added.port()), 2000);
                socket.setSoTimeout(5000);

                String answer = send(socket, "CONNECT " + target + " HTTP/1.1\r\nHost: x\r\n\r\n");

                assertThat(answer)
                        .as("past the port rule, on to the credentials: " + target)
                        .startsWith("HTTP/1.1 407");
            }
        } finally {
            added.stop();
        }
    }

    @Test
    void halfSentHeadsBeyondASourcesShareAreClosedAndACorrectConnectIsAnsweredAtOnce() throws IOException {
        List<Socket> halfSent = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            Socket socket = connect("127.0.0.3");
            socket.getOutputStream().write("CONNECT example.com:443 HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
            halfSent.add(socket);
        }
        // The source's four places are taken; every later connection from it is closed, not kept waiting.
        await("the connections over the source's share are closed")
                .atMost(Duration.ofSeconds(5))
                .until(() ->
                        halfSent.stream().filter(ProxyHeadTest::closedByServer).count() == 8);

        long start = System.nanoTime();
        String answer = send(connect("127.0.0.2"), "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com\r\n\r\n");

        assertThat(answer).startsWith("HTTP/1.1 407");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(1));
        assertThat(halfSent.stream().filter(socket -> !closedByServer(socket)).count())
                .as("the source's own places stay open until the head deadline")
                .isEqualTo(4);
    }

    @Test
    void aRefusalIsLoggedWithTheSendersAddress() {
        // Lines are rate-limited across the process: ask again until this sender's line is the one let through.
        await().atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    String answer =
                            send(connect("127.0.0.4"), "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com\r\n\r\n");
                    assertThat(answer).startsWith("HTTP/1.1 407");
                    return refusals.list.stream()
                            .anyMatch(line -> line.getFormattedMessage().contains("sender=127.0.0.4")
                                    && line.getFormattedMessage().contains("outcome=unauthorized"));
                });
    }

    /** Whether the server closed the connection (end of stream); consumes nothing it would keep. */
    private static boolean closedByServer(Socket socket) {
        try {
            socket.setSoTimeout(20);
            InputStream in = socket.getInputStream();
            return in.read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }
}
