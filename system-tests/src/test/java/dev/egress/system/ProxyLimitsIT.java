package dev.egress.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.ydb.coordination.testing.ListenPorts;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * What a sender can do to App's proxy listener, black box (real processes): thousands of half-sent heads leave a
 * correct {@code CONNECT} answered within a second, and a target that is not a host and a port is 400. Tunnels that
 * never read are {@link ProxyFloodIT}'s.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ProxyLimitsIT {

    private static final int PROXY_PORT = ListenPorts.freeOutsideEphemeralRange();
    private static final String ACME = "acme:" + Platform.API_TOKEN;
    private static final String SMALL_CO = "small-co:" + Platform.API_TOKEN;
    private static final int HALF_SENT_HEADS = 3000;

    private static Platform platform;
    private static ServerSocket echo;
    private static ExecutorService pool;
    private static final ConcurrentLinkedQueue<Socket> targetSides = new ConcurrentLinkedQueue<>();

    @BeforeAll
    static void start() throws Exception {
        pool = Executors.newCachedThreadPool();
        echo = new ServerSocket(0, 100, InetAddress.getLoopbackAddress());
        pool.submit(ProxyLimitsIT::echoToEveryone);
        platform = Platform.start(new Platform.Layout(
                Platform.Layout.LOCAL.borders(),
                Platform.Layout.LOCAL.tenants(),
                1,
                List.of(),
                List.of(
                        "--egress.proxy.enabled=true",
                        "--egress.proxy.address=127.0.0.1",
                        "--egress.proxy.port=" + PROXY_PORT,
                        "--egress.proxy.allowed-ports=1024-65535")));
    }

    @AfterAll
    static void stop() throws IOException {
        for (Socket socket : targetSides) {
            socket.close();
        }
        if (platform != null) {
            platform.close();
        }
        for (ServerSocket server : new ServerSocket[] {echo}) {
            if (server != null) {
                server.close();
            }
        }
        if (pool != null) {
            pool.shutdownNow();
        }
    }

    private static void echoToEveryone() {
        while (!echo.isClosed()) {
            try {
                Socket socket = echo.accept();
                targetSides.add(socket);
                pool.submit(() -> {
                    try (InputStream in = socket.getInputStream();
                            OutputStream out = socket.getOutputStream()) {
                        in.transferTo(out);
                    } catch (IOException e) {
                        // the tunnel ended
                    }
                });
            } catch (IOException e) {
                return;
            }
        }
    }

    @Test
    @Order(1)
    void aTargetThatIsNotAHostAndAPortIs400() throws IOException {
        try (Socket socket = connect("127.0.0.1")) {
            assertThat(ProxyConnect.connect(socket, "127.0.0.1#x:9999", ACME).head())
                    .startsWith("HTTP/1.1 400");
        }
    }

    @Test
    @Order(3)
    void threeThousandHalfSentHeadsLeaveACorrectConnectAnsweredWithinASecond() throws Exception {
        // The same CONNECT without the heads, twice: the first opens App's link to the Border (a TLS handshake, on a
        // loaded machine over a second), which is not what the heads may cost; the second is the time to compare.
        correctConnect();
        Duration baseline = correctConnect();
        long started = System.nanoTime();
        List<Socket> halfSent = new ArrayList<>();
        try {
            for (int i = 0; i < HALF_SENT_HEADS; i++) {
                // From seven source addresses, as several senders would: each keeps its share, the rest is closed.
                Socket socket = connect("127.0.0." + (1 + i % 7));
                halfSent.add(socket);
                try {
                    socket.getOutputStream()
                            .write("CONNECT example.com:443 HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
                } catch (IOException closedAlready) {
                    // Over its source's share: the proxy closed it at once, as it should.
                }
            }
            long sent = System.nanoTime();
            Duration took = correctConnect();
            System.out.printf(
                    "ProxyLimitsIT: %d half-sent heads in %d ms; a correct CONNECT answered in %d ms (%d ms without)%n",
                    HALF_SENT_HEADS, (sent - started) / 1_000_000, took.toMillis(), baseline.toMillis());
            assertThat(took).isLessThan(Duration.ofSeconds(1));
        } finally {
            for (Socket socket : halfSent) {
                socket.close();
            }
        }
    }

    /** A tenant's correct CONNECT from a source no head holds a place of: how long until its 200. */
    private static Duration correctConnect() throws IOException {
        try (Socket socket = connect("127.0.0.9")) {
            long asked = System.nanoTime();
            ProxyConnect.Answer answer = ProxyConnect.connect(socket, "127.0.0.1:" + echo.getLocalPort(), SMALL_CO);
            Duration took = Duration.ofNanos(System.nanoTime() - asked);
            assertThat(answer.head()).startsWith("HTTP/1.1 200");
            return took;
        }
    }

    private static Socket connect(String from) throws IOException {
        return ProxyConnect.open(from, PROXY_PORT);
    }
}
