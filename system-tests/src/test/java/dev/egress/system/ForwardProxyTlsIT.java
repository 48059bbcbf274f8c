package dev.egress.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.discovery.trust.testing.TestPki;
import dev.egress.ydb.coordination.testing.ListenPorts;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The forward proxy's listener over TLS ({@code egress.proxy.ssl-bundle}) and the two limits that end an open
 * tunnel ({@code egress.proxy.idle-timeout}, {@code max-lifetime}), set small here, on one platform: curl tunnels
 * through an {@code https://} proxy URL trusting the listener's CA, a plaintext request gets no HTTP answer, and a
 * tunnel (over a TLS connection to the proxy) is closed when idle and when too old, each counted under its reason in
 * {@code egress_proxy_tunnels_closed_total}.
 *
 * <p>Layout: {@link Platform.Layout#LOCAL}; acme is dedicated to .3 (border-a) and .4 (border-b).
 */
class ForwardProxyTlsIT {

    static {
        // As in ForwardProxyIT: the JDK reads this once, when its HTTP client first loads (this class's Platform
        // loads it). Running first in the suite's JVM without it would leave ForwardProxyIT's JDK client at 407.
        System.setProperty("jdk.http.auth.tunneling.disabledSchemes", "");
    }

    private static final Set<String> ACME = Set.of("127.0.0.3", "127.0.0.4");
    private static final String USER = "acme:" + Platform.API_TOKEN;
    private static final Duration IDLE = Duration.ofMillis(1500);
    private static final Duration LIFETIME = Duration.ofSeconds(5);

    private static final int PROXY_PORT = ListenPorts.freeOutsideEphemeralRange();
    private static Platform platform;
    private static TestPki proxyCa;
    private static ServerSocket echo;
    private static final ConcurrentLinkedQueue<String> peers = new ConcurrentLinkedQueue<>();
    private static ExecutorService pool;

    @BeforeAll
    static void start() throws Exception {
        proxyCa = TestPki.create("proxy listener CA");
        TestPki.Issued listener = proxyCa.appServer("proxy");
        pool = Executors.newCachedThreadPool();
        echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        pool.submit(ForwardProxyTlsIT::echo);
        platform = Platform.start(new Platform.Layout(
                Platform.Layout.LOCAL.borders(),
                Platform.Layout.LOCAL.tenants(),
                1,
                List.of(),
                List.of(
                        "--egress.proxy.enabled=true",
                        "--egress.proxy.allowed-ports=1024-65535",
                        "--egress.proxy.address=127.0.0.1",
                        "--egress.proxy.port=" + PROXY_PORT,
                        "--egress.proxy.ssl-bundle=proxy",
                        "--spring.ssl.bundle.pem.proxy.keystore.certificate=file:" + listener.certificate(),
                        "--spring.ssl.bundle.pem.proxy.keystore.private-key=file:" + listener.privateKey(),
                        "--egress.proxy.idle-timeout=" + IDLE.toMillis() + "ms",
                        "--egress.proxy.max-lifetime=" + LIFETIME.toMillis() + "ms")));
    }

    @AfterAll
    static void stop() throws IOException {
        if (platform != null) {
            platform.close();
        }
        if (echo != null) {
            echo.close();
        }
        if (pool != null) {
            pool.shutdownNow();
        }
    }

    /** A plain TCP target that records the peer and echoes every byte; an HTTP request gets a tiny answer. */
    private static void echo() {
        while (!echo.isClosed()) {
            try {
                Socket socket = echo.accept();
                peers.add(socket.getInetAddress().getHostAddress());
                pool.submit(() -> {
                    try (socket;
                            InputStream in = socket.getInputStream();
                            OutputStream out = socket.getOutputStream()) {
                        byte[] first = new byte[4];
                        int n = in.readNBytes(first, 0, 4);
                        if (n == 4 && new String(first, StandardCharsets.US_ASCII).equals("GET ")) {
                            String seen = socket.getInetAddress().getHostAddress();
                            out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + seen.length()
                                            + "\r\nConnection: close\r\n\r\n" + seen)
                                    .getBytes(StandardCharsets.US_ASCII));
                            return;
                        }
                        out.write(first, 0, n);
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
    void curlTunnelsThroughAnHttpsProxyUrlTrustingTheListenersCa() throws Exception {
        HostCommand.Result result = HostCommand.exec(
                List.of(
                        "curl",
                        "-sS",
                        "--max-time",
                        "15",
                        "-p",
                        "--proxy",
                        "https://127.0.0.1:" + PROXY_PORT,
                        "--proxy-cacert",
                        proxyCa.caPem().toString(),
                        "--proxy-user",
                        USER,
                        "http://127.0.0.1:" + echo.getLocalPort() + "/who"),
                null,
                Duration.ofSeconds(20));
        assertThat(result.code()).as(result.output()).isZero();
        assertThat(result.output().strip()).isIn(ACME);
    }

    @Test
    void theTlsListenerGivesAPlaintextRequestNoHttpAnswer() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", PROXY_PORT)) {
            socket.setSoTimeout(15_000);
            String authority = "127.0.0.1:" + echo.getLocalPort();
            socket.getOutputStream()
                    .write(("CONNECT " + authority + " HTTP/1.1\r\nHost: " + authority + "\r\n"
                                    + "Proxy-Authorization: " + basic(USER) + "\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
            byte[] answer;
            try {
                answer = socket.getInputStream().readAllBytes();
            } catch (IOException e) {
                answer = new byte[0];
            }
            assertThat(new String(answer, StandardCharsets.ISO_8859_1)).doesNotContain("HTTP/1.1");
        }
    }

    @Test
    void aTunnelIdleLongerThanTheIdleTimeoutIsClosedAsIdleTimeout() throws Exception {
        double before = closed("idle-timeout");
        try (SSLSocket tunnel = open()) {
            assertEchoes(tunnel, "hello");
            long quiet = System.nanoTime();
            await("the idle tunnel is closed").atMost(Duration.ofSeconds(15)).until(() -> ended(tunnel));
            assertThat(Duration.ofNanos(System.nanoTime() - quiet)).isGreaterThanOrEqualTo(IDLE.minusMillis(200));
        }
        await("counted as idle-timeout").atMost(Duration.ofSeconds(10)).until(() -> closed("idle-timeout") > before);
    }

    @Test
    void aBusyTunnelOlderThanTheMaxLifetimeIsClosedAsMaxLifetime() throws Exception {
        double before = closed("max-lifetime");
        try (SSLSocket tunnel = open()) {
            long opened = System.nanoTime();
            // Busy every 300 ms, well inside the idle timeout: only the lifetime can end it.
            await("the busy tunnel is closed")
                    .atMost(LIFETIME.plusSeconds(10))
                    .pollInterval(Duration.ofMillis(300))
                    .until(() -> !echoes(tunnel, "busy"));
            assertThat(Duration.ofNanos(System.nanoTime() - opened)).isGreaterThanOrEqualTo(LIFETIME.minusMillis(200));
        }
        await("counted as max-lifetime").atMost(Duration.ofSeconds(10)).until(() -> closed("max-lifetime") > before);
    }

    private static String basic(String credentials) {
        return "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8));
    }

    /** A CONNECT to the echo target over a TLS connection to the proxy, up to its 200. */
    private static SSLSocket open() throws IOException {
        SSLSocket socket = (SSLSocket)
                TestPki.context(null, proxyCa.caPem()).getSocketFactory().createSocket("127.0.0.1", PROXY_PORT);
        socket.setSoTimeout(15_000);
        socket.startHandshake();
        String authority = "127.0.0.1:" + echo.getLocalPort();
        socket.getOutputStream()
                .write(("CONNECT " + authority + " HTTP/1.1\r\nHost: " + authority + "\r\nProxy-Authorization: "
                                + basic(USER) + "\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
        StringBuilder head = new StringBuilder();
        InputStream in = socket.getInputStream();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("proxy closed before answering: " + head);
            }
            head.append((char) b);
        }
        assertThat(head.toString()).startsWith("HTTP/1.1 200");
        return socket;
    }

    private static void assertEchoes(Socket socket, String text) throws IOException {
        assertThat(echoes(socket, text)).as("echoes " + text).isTrue();
    }

    private static boolean echoes(Socket socket, String text) {
        try {
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            socket.getOutputStream().write(bytes);
            socket.getOutputStream().flush();
            byte[] back = socket.getInputStream().readNBytes(bytes.length);
            return new String(back, StandardCharsets.UTF_8).equals(text);
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean ended(Socket socket) {
        try {
            socket.setSoTimeout(200);
            return socket.getInputStream().read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    /** {@code egress_proxy_tunnels_closed_total} for one reason, as App's Prometheus endpoint shows it. */
    private static double closed(String reason) {
        return platform.http
                .get(platform.appUri(0, "/actuator/prometheus"), null)
                .text()
                .lines()
                .filter(line -> line.startsWith("egress_proxy_tunnels_closed_total{")
                        && line.contains("reason=\"" + reason + "\""))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }
}
