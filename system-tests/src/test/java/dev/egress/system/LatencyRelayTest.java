package dev.egress.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The user-space latency line that stands in for {@code tc netem delay} where the kernel lacks it: on
 * loopback, against an echo server that answers whatever it reads and closes when the client does.
 */
class LatencyRelayTest {

    private static final Duration DELAY = Duration.ofMillis(150);

    private ServerSocket echo;
    private LatencyRelay relay;

    @BeforeEach
    void startEchoServerBehindRelay() throws IOException {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        echo = new ServerSocket(0, 16, loopback);
        // Own threads, not the common pool: on a 2-core machine it has one thread, which the accept loop holds.
        daemon(() -> {
            while (!echo.isClosed()) {
                try {
                    Socket s = echo.accept();
                    daemon(() -> echoUntilEnd(s));
                } catch (IOException closed) {
                    return;
                }
            }
        });
        relay = LatencyRelay.start(loopback, new InetSocketAddress(loopback, echo.getLocalPort()), DELAY);
    }

    @AfterEach
    void stop() throws IOException {
        relay.close();
        echo.close();
    }

    @Test
    void everyRoundTripTakesAtLeastTheDelayEachWay() throws IOException {
        try (Socket client = connect()) {
            // The first exchange also pays the emulated handshake; the second is a pooled connection's.
            for (int i = 0; i < 2; i++) {
                long start = System.nanoTime();
                client.getOutputStream().write(("ping-" + i).getBytes(StandardCharsets.UTF_8));
                byte[] answer = client.getInputStream().readNBytes(6);
                Duration took = Duration.ofNanos(System.nanoTime() - start);

                assertThat(new String(answer, StandardCharsets.UTF_8)).isEqualTo("ping-" + i);
                assertThat(took).as("round trip %d", i).isGreaterThanOrEqualTo(DELAY.multipliedBy(2));
            }
        }
        assertThat(relay.connections()).isEqualTo(1);
        assertThat(relay.bytesUp()).isEqualTo(12);
        assertThat(relay.bytesDown()).isEqualTo(12);
    }

    @Test
    void keepsOrderAndPassesTheEndOfTheStreamOn() throws Exception {
        StringBuilder sent = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            sent.append(i).append(',');
        }
        byte[] bytes = sent.toString().getBytes(StandardCharsets.UTF_8);
        try (Socket client = connect()) {
            CompletableFuture<Void> writing = new CompletableFuture<>();
            daemon(() -> {
                try {
                    OutputStream out = client.getOutputStream();
                    for (int off = 0; off < bytes.length; off += 1000) {
                        out.write(bytes, off, Math.min(1000, bytes.length - off));
                    }
                    // The end of the stream travels the line too: the echo server closes, the relay passes it back.
                    client.shutdownOutput();
                    writing.complete(null);
                } catch (IOException e) {
                    writing.completeExceptionally(e);
                }
            });
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            client.getInputStream().transferTo(received);
            writing.get();

            assertThat(received.toString(StandardCharsets.UTF_8)).isEqualTo(sent.toString());
        }
    }

    private static void daemon(Runnable task) {
        Thread t = new Thread(task, "echo");
        t.setDaemon(true);
        t.start();
    }

    private Socket connect() throws IOException {
        Socket client = new Socket();
        client.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), relay.port()), 5_000);
        client.setSoTimeout(30_000);
        return client;
    }

    private static void echoUntilEnd(Socket s) {
        try (s;
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream()) {
            byte[] buffer = new byte[8192];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
            }
        } catch (IOException e) {
            // The relay closed on us: nothing to echo.
        }
    }
}
