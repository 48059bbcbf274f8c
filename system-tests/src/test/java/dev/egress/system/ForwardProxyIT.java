package dev.egress.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.egress.discovery.trust.testing.TestPki;
import dev.egress.ydb.coordination.testing.ListenPorts;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Authenticator;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.PasswordAuthentication;
import java.net.ProxySelector;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The forward proxy with real clients against one platform: curl ({@code -p -x}), the JDK {@link HttpClient}
 * (ProxySelector and Authenticator) and Python {@code requests}, each through a CONNECT tunnel to an HTTPS target
 * with its own certificate, which reports the source address it saw; absolute-form {@code http://} requests (curl
 * {@code -x} without {@code -p}, the JDK client) through the same tunnels, byte-exact; a sender from an
 * unauthenticated source without credentials; the answers before a tunnel is up (407, 403
 * for the platform's own ports and denied ranges, 503 fail closed); and the lifecycle: a draining Border keeps its
 * open tunnel and takes no new one (which opens through the other Border), a Border killed mid-tunnel closes the
 * sender's connection.
 *
 * <p>Layout: border-a hosts .2 and .3, border-b .4 and .5; acme is dedicated to .3 (border-a) and .4 (border-b).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ForwardProxyIT {

    static {
        // The JDK refuses Basic for proxies on CONNECT unless this is emptied, before its HTTP client loads.
        System.setProperty("jdk.http.auth.tunneling.disabledSchemes", "");
    }

    private static final Set<String> ACME = Set.of("127.0.0.3", "127.0.0.4");
    private static final String USER = "acme:" + Platform.API_TOKEN;
    private static final String UNAUTHENTICATED = "127.0.0.8";

    private static final int PROXY_PORT = ListenPorts.freeOutsideEphemeralRange();
    private static Platform platform;
    private static TestPki targetCa;
    private static HttpsServer target;
    /** A plain HTTP target for absolute-form requests: what it received, request by request. */
    private static HttpServer plainTarget;

    private static final ConcurrentLinkedQueue<Received> plainReceived = new ConcurrentLinkedQueue<>();
    private static ServerSocket holder;
    private static final ConcurrentLinkedQueue<String> holderPeers = new ConcurrentLinkedQueue<>();
    private static final List<Socket> held = new ArrayList<>();
    private static ExecutorService pool;

    @BeforeAll
    static void start() throws Exception {
        targetCa = TestPki.create("proxy target CA");
        target = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        target.setHttpsConfigurator(new HttpsConfigurator(TestPki.context(targetCa.appServer("target"))));
        target.createContext("/who", exchange -> {
            byte[] body =
                    exchange.getRemoteAddress().getAddress().getHostAddress().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        pool = Executors.newCachedThreadPool();
        target.setExecutor(pool);
        target.start();
        plainTarget = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        plainTarget.createContext("/echo", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            plainReceived.add(new Received(
                    exchange.getRemoteAddress().getAddress().getHostAddress(),
                    exchange.getRequestURI().toString(),
                    exchange.getRequestHeaders().containsKey("Proxy-Authorization"),
                    body));
            exchange.getResponseHeaders().add("X-Target", "plain");
            exchange.sendResponseHeaders(201, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        plainTarget.setExecutor(pool);
        plainTarget.start();
        holder = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        pool.submit(ForwardProxyIT::echo);
        // acme claims the HTTPS target; the echo target is unclaimed (an empty user sends it through the shared pool).
        String tenants = """
                sharedPool: [127.0.0.2, 127.0.0.5]
                tenants:
                  - id: acme
                    dedicatedIps: [127.0.0.3, 127.0.0.4]
                    destinations: ["127.0.0.1:%d"]
                  - id: small-co
                """.formatted(target.getAddress().getPort());
        platform = Platform.start(new Platform.Layout(
                Platform.Layout.LOCAL.borders(),
                tenants,
                1,
                // A short request timeout: a tunnel must outlive it (its request body lasts as long as the tunnel).
                List.of("--egress.border.drain-timeout=6s", "--egress.server.request-timeout=2s"),
                List.of(
                        "--egress.proxy.enabled=true",
                        "--egress.proxy.allowed-ports=1024-65535",
                        "--egress.proxy.address=127.0.0.1",
                        "--egress.proxy.port=" + PROXY_PORT,
                        // Senders from 127.0.0.8 may send no credentials; 127.0.0.1 (every other test) still must.
                        "--egress.proxy.unauthenticated-sources=" + UNAUTHENTICATED + "/32")));
    }

    @AfterAll
    static void stop() throws IOException {
        if (platform != null) {
            platform.close();
        }
        if (target != null) {
            target.stop(0);
        }
        if (plainTarget != null) {
            plainTarget.stop(0);
        }
        if (holder != null) {
            holder.close();
        }
        if (pool != null) {
            pool.shutdownNow();
        }
    }

    /** A plain TCP target that records the peer and echoes every byte, connection by connection. */
    private static void echo() {
        while (!holder.isClosed()) {
            try {
                Socket socket = holder.accept();
                holderPeers.add(socket.getInetAddress().getHostAddress());
                synchronized (held) {
                    held.add(socket);
                }
                pool.submit(() -> {
                    try (socket;
                            InputStream in = socket.getInputStream();
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

    private static String targetUrl() {
        return "https://127.0.0.1:" + target.getAddress().getPort() + "/who";
    }

    @Test
    @Order(1)
    void curlThroughConnectTunnelLeavesFromTheTenantsDedicatedIp() throws Exception {
        HostCommand.Result result = curlThroughATunnel(USER);
        assertThat(result.code()).as(result.output()).isZero();
        assertThat(result.output().strip()).isIn(ACME);
    }

    @Test
    @Order(2)
    void jdkHttpClientTunnelsWithProxyAuthentication() throws Exception {
        HttpClient client = HttpClient.newBuilder()
                .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", PROXY_PORT)))
                .authenticator(new Authenticator() {
                    @Override
                    protected PasswordAuthentication getPasswordAuthentication() {
                        return getRequestorType() == RequestorType.PROXY
                                ? new PasswordAuthentication("acme", Platform.API_TOKEN.toCharArray())
                                : null;
                    }
                })
                .sslContext(TestPki.context(null, targetCa.caPem()))
                .connectTimeout(Duration.ofSeconds(10))
                .build();
        HttpResponse<String> response = client.send(
                HttpRequest.newBuilder(URI.create(targetUrl()))
                        .timeout(Duration.ofSeconds(15))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isIn(ACME);
    }

    @Test
    @Order(3)
    void pythonRequestsTunnelsThroughTheProxy() throws Exception {
        HostCommand.Result probe =
                HostCommand.exec(List.of("python3", "-c", "import requests"), null, Duration.ofSeconds(10));
        Assumptions.assumeTrue(probe.ok(), "python3 with requests is not installed (apt-get install python3-requests)");
        String script = """
                import sys, requests
                proxy = 'http://%s@127.0.0.1:%d'
                r = requests.get(sys.argv[1], proxies={'https': proxy}, verify=sys.argv[2], timeout=15)
                print(r.status_code, r.text)
                """.formatted(USER, PROXY_PORT);
        HostCommand.Result result = HostCommand.exec(
                List.of("python3", "-c", script, targetUrl(), targetCa.caPem().toString()),
                null,
                Duration.ofSeconds(30));
        assertThat(result.code()).as(result.output()).isZero();
        String[] answer = result.output().strip().split(" ");
        assertThat(answer[0]).isEqualTo("200");
        assertThat(answer[1]).isIn(ACME);
    }

    @Test
    @Order(3)
    void anEmptyUserSendsAsTheTenantThatClaimsTheDestinationElseThroughTheSharedPool() throws Exception {
        HostCommand.Result claimed = curlThroughATunnel(":" + Platform.API_TOKEN);
        assertThat(claimed.code()).as(claimed.output()).isZero();
        assertThat(claimed.output().strip()).isIn(ACME);
        try (Tunnel unclaimed = Tunnel.open(PROXY_PORT, holder.getLocalPort(), ":" + Platform.API_TOKEN)) {
            unclaimed.assertEchoes("shared");
            assertThat(lastPeer()).isIn("127.0.0.2", "127.0.0.5");
        }
    }

    /** curl -p through the proxy to the HTTPS target (its own CA), as the given proxy user; prints the peer. */
    private HostCommand.Result curlThroughATunnel(String proxyUser) throws Exception {
        return HostCommand.exec(
                List.of(
                        "curl",
                        "-sS",
                        "--max-time",
                        "15",
                        "-p",
                        "-x",
                        "http://127.0.0.1:" + PROXY_PORT,
                        "--proxy-user",
                        proxyUser,
                        "--cacert",
                        targetCa.caPem().toString(),
                        targetUrl()),
                null,
                Duration.ofSeconds(20));
    }

    record Received(String peer, String uri, boolean proxyAuthorization, byte[] body) {}

    @Test
    @Order(3)
    void absoluteFormHttpRequestsGoThroughATunnelByteExactFromTheTenantsIp() throws Exception {
        byte[] body = new byte[300_000];
        new Random(23).nextBytes(body);
        Path dir = Files.createTempDirectory("proxy-absolute");
        Path bodyFile = Files.write(dir.resolve("body.bin"), body);
        String url = "http://127.0.0.1:" + plainTarget.getAddress().getPort() + "/echo?q=1";
        plainReceived.clear();
        // curl -x without -p: an absolute-form POST with Content-Length.
        HostCommand.Result result = HostCommand.exec(
                List.of(
                        "curl",
                        "-sS",
                        "--max-time",
                        "20",
                        "-x",
                        "http://127.0.0.1:" + PROXY_PORT,
                        "--proxy-user",
                        USER,
                        "--data-binary",
                        "@" + bodyFile,
                        "-H",
                        "Content-Type: application/octet-stream",
                        "-D",
                        dir.resolve("head.txt").toString(),
                        "-o",
                        dir.resolve("answer.bin").toString(),
                        url),
                null,
                Duration.ofSeconds(30));
        assertThat(result.code()).as(result.output()).isZero();
        assertThat(Files.readString(dir.resolve("head.txt")))
                .startsWith("HTTP/1.1 201")
                .containsIgnoringCase("X-Target: plain");
        assertThat(Files.readAllBytes(dir.resolve("answer.bin"))).isEqualTo(body);
        Received seen = plainReceived.poll();
        assertThat(seen).isNotNull();
        assertThat(seen.peer()).isIn(ACME);
        assertThat(seen.uri()).isEqualTo("/echo?q=1");
        assertThat(seen.proxyAuthorization()).isFalse();
        assertThat(seen.body()).isEqualTo(body);
        // The JDK client with a proxy to an http:// URL: absolute-form, here with a chunked body.
        HttpClient client = HttpClient.newBuilder()
                .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", PROXY_PORT)))
                .authenticator(new Authenticator() {
                    @Override
                    protected PasswordAuthentication getPasswordAuthentication() {
                        return getRequestorType() == RequestorType.PROXY
                                ? new PasswordAuthentication("acme", Platform.API_TOKEN.toCharArray())
                                : null;
                    }
                })
                .build();
        HttpResponse<byte[]> answer = client.send(
                HttpRequest.newBuilder(URI.create(url))
                        .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)))
                        .timeout(Duration.ofSeconds(20))
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(answer.statusCode()).isEqualTo(201);
        assertThat(answer.headers().firstValue("X-Target")).contains("plain");
        assertThat(answer.body()).isEqualTo(body);
        Received chunked = plainReceived.stream()
                .filter(received -> Arrays.equals(received.body(), body))
                .reduce((first, second) -> second)
                .orElseThrow();
        assertThat(chunked.peer()).isIn(ACME);
        assertThat(chunked.proxyAuthorization()).isFalse();
        // https:// in absolute form stays refused: that is what CONNECT is for.
        try (Socket socket = new Socket("127.0.0.1", PROXY_PORT)) {
            socket.setSoTimeout(15_000);
            socket.getOutputStream()
                    .write("GET https://127.0.0.1/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
            String text = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(text).startsWith("HTTP/1.1 400").contains("use CONNECT");
        }
    }

    @Test
    @Order(3)
    void aSenderFromAnUnauthenticatedSourceTunnelsWithoutCredentialsAsTheClaimingTenant() throws Exception {
        HostCommand.Result result = HostCommand.exec(
                List.of(
                        "curl",
                        "-sS",
                        "--max-time",
                        "15",
                        "--interface",
                        UNAUTHENTICATED,
                        "-p",
                        "-x",
                        "http://127.0.0.1:" + PROXY_PORT,
                        "--cacert",
                        targetCa.caPem().toString(),
                        targetUrl()),
                null,
                Duration.ofSeconds(20));
        assertThat(result.code()).as(result.output()).isZero();
        assertThat(result.output().strip()).as("acme claims the target").isIn(ACME);
        // Credentials sent from there are checked as always.
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(UNAUTHENTICATED, 0));
            socket.connect(new InetSocketAddress("127.0.0.1", PROXY_PORT));
            socket.setSoTimeout(15_000);
            String authority = "127.0.0.1:" + target.getAddress().getPort();
            socket.getOutputStream()
                    .write(("CONNECT " + authority + " HTTP/1.1\r\nHost: " + authority
                                    + "\r\nProxy-Authorization: Basic "
                                    + Base64.getEncoder().encodeToString("acme:wrong".getBytes(StandardCharsets.UTF_8))
                                    + "\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
            String text = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(text).startsWith("HTTP/1.1 407");
        }
    }

    @Test
    @Order(4)
    void missingOrWrongCredentialsAnswer407WithTheBasicChallenge() throws Exception {
        RawAnswer none = connect("127.0.0.1:" + target.getAddress().getPort(), null);
        assertThat(none.status()).isEqualTo(407);
        assertThat(none.head()).containsIgnoringCase("Proxy-Authenticate: Basic realm=\"egress\"");
        assertThat(none.body()).contains("urn:egress:problem:unauthorized");
        RawAnswer wrong = connect("127.0.0.1:" + target.getAddress().getPort(), "acme:not-the-token");
        assertThat(wrong.status()).isEqualTo(407);
        assertThat(platform.apps.get(0).logText())
                .doesNotContain("not-the-token")
                .doesNotContain(Platform.API_TOKEN);
    }

    @Test
    @Order(5)
    void platformsOwnPortsAndDeniedRangesAnswer403TargetDenied() throws Exception {
        RawAnswer own = connect("127.0.0.1:" + platform.borderPorts.get("border-a"), USER);
        assertThat(own.status()).isEqualTo(403);
        assertThat(own.body()).contains("urn:egress:problem:target-denied").contains("\"reason\"");
        // Vetted as a literal before any connection: nothing is sent towards 10.0.0.1.
        RawAnswer privateRange = connect("10.0.0.1:443", USER);
        assertThat(privateRange.status()).isEqualTo(403);
        assertThat(privateRange.body()).contains("urn:egress:problem:target-denied");
        RawAnswer noPort = connect("127.0.0.1", USER);
        assertThat(noPort.status()).isEqualTo(400);
        RawAnswer unknown = connect("127.0.0.1:" + target.getAddress().getPort(), "nobody:" + Platform.API_TOKEN);
        assertThat(unknown.status()).isEqualTo(404);
    }

    @Test
    @Order(5)
    void aTunnelOutlivesTheBordersRequestTimeout() throws Exception {
        try (Tunnel tunnel = Tunnel.open(PROXY_PORT, holder.getLocalPort(), USER)) {
            tunnel.assertEchoes("first");
            long opened = System.nanoTime();
            // Past the Border's request timeout (2 s), the tunnel must stay open the whole time.
            await("the tunnel stays open for 3 s")
                    .during(Duration.ofSeconds(3))
                    .atMost(Duration.ofSeconds(5))
                    .until(() -> !tunnel.closed());
            assertThat(Duration.ofNanos(System.nanoTime() - opened)).isGreaterThan(Duration.ofSeconds(2));
            tunnel.assertEchoes("three seconds later");
        }
    }

    @Test
    @Order(6)
    void dedicatedTenantWithEveryIpDisabledFailsClosedWith503() throws Exception {
        for (String ip : ACME) {
            setStatus(ip, "DISABLED");
        }
        try {
            await("acme's IPs disabled in App")
                    .atMost(Duration.ofSeconds(15))
                    .until(() -> ACME.stream().allMatch(ip -> !"ACTIVE".equals(statusSeen(ip))));
            RawAnswer answer = connect("127.0.0.1:" + target.getAddress().getPort(), USER);
            assertThat(answer.status()).isEqualTo(503);
            assertThat(answer.head()).containsIgnoringCase("Retry-After:");
            assertThat(answer.body()).contains("urn:egress:problem:no-egress-available");
        } finally {
            for (String ip : ACME) {
                setStatus(ip, "ACTIVE");
            }
        }
        await("acme's IPs active again")
                .atMost(Duration.ofSeconds(15))
                .until(() -> ACME.stream().allMatch(ip -> "ACTIVE".equals(statusSeen(ip))));
    }

    @Test
    @Order(7)
    void drainingBorderKeepsItsOpenTunnelTakesNoNewOneAndClosesItAtTheDrainTimeout() throws Exception {
        try (Tunnel first = Tunnel.open(PROXY_PORT, holder.getLocalPort(), USER)) {
            first.assertEchoes("before");
            String ip = lastPeer();
            assertThat(ip).isIn(ACME);
            String border = ip.equals("127.0.0.3") ? "border-a" : "border-b";
            String other = ip.equals("127.0.0.3") ? "127.0.0.4" : "127.0.0.3";
            platform.borders.get(border).terminate();
            await("App sees " + border + " draining")
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> !"ACTIVE".equals(platform.statusSeenByApp(0, ip, border)));
            first.assertEchoes("while draining");
            try (Tunnel second = Tunnel.open(PROXY_PORT, holder.getLocalPort(), USER)) {
                second.assertEchoes("new");
                assertThat(lastPeer()).isEqualTo(other);
            }
            await("the drain timeout closes the open tunnel")
                    .atMost(Duration.ofSeconds(20))
                    .until(first::closed);
            assertThat(platform.borders.get(border).awaitExit(Duration.ofSeconds(30)))
                    .isTrue();
            platform.borders.get(border).restart();
            platform.awaitBorderReady(border);
            await("App sees " + border + " again")
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> "ACTIVE".equals(platform.statusSeenByApp(0, ip, border)));
        }
    }

    @Test
    @Order(8)
    void borderKilledMidTunnelClosesTheSendersConnection() throws Exception {
        try (Tunnel tunnel = Tunnel.open(PROXY_PORT, holder.getLocalPort(), USER)) {
            tunnel.assertEchoes("alive");
            String ip = lastPeer();
            assertThat(ip).isIn(ACME);
            String border = ip.equals("127.0.0.3") ? "border-a" : "border-b";
            int before = holderPeers.size();
            platform.borders.get(border).kill();
            await("the sender's connection closes")
                    .atMost(Duration.ofSeconds(15))
                    .until(tunnel::closed);
            // Nothing was retried behind the sender's back, from any IP.
            assertThat(holderPeers).hasSize(before);
        }
        // A new tunnel opens through the other Border, whether or not App still lists the dead one.
        try (Tunnel next = Tunnel.open(PROXY_PORT, holder.getLocalPort(), USER)) {
            next.assertEchoes("after");
            assertThat(lastPeer()).isIn(ACME);
        }
    }

    private static String lastPeer() {
        String last = null;
        for (String peer : holderPeers) {
            last = peer;
        }
        return last;
    }

    private static String statusSeen(String ip) {
        String border = ip.equals("127.0.0.3") ? "border-a" : "border-b";
        return platform.statusSeenByApp(0, ip, border);
    }

    private static void setStatus(String ip, String status) {
        Http.Response answer = platform.http.put(
                platform.appUri(0, "/ops/v1/ips/" + ip), Platform.OPERATOR_TOKEN, "{\"status\":\"" + status + "\"}");
        assertThat(answer.status()).as(answer.text()).isBetween(200, 299);
    }

    record RawAnswer(int status, String head, String body) {}

    /** A CONNECT by hand, for the answers before a tunnel is up. */
    private static RawAnswer connect(String authority, String credentials) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", PROXY_PORT)) {
            socket.setSoTimeout(15_000);
            StringBuilder request =
                    new StringBuilder("CONNECT " + authority + " HTTP/1.1\r\nHost: " + authority + "\r\n");
            if (credentials != null) {
                request.append("Proxy-Authorization: Basic ")
                        .append(Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)))
                        .append("\r\n");
            }
            socket.getOutputStream().write(request.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
            String text = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int split = text.indexOf("\r\n\r\n");
            String head = split < 0 ? text : text.substring(0, split);
            String body = split < 0 ? "" : text.substring(split + 4);
            return new RawAnswer(Integer.parseInt(head.split(" ")[1]), head, body);
        }
    }

    /** A raw tunnel to the echo target. */
    private static final class Tunnel implements AutoCloseable {
        private final Socket socket;

        private Tunnel(Socket socket) {
            this.socket = socket;
        }

        static Tunnel open(int proxyPort, int targetPort, String credentials) throws IOException {
            Socket socket = new Socket("127.0.0.1", proxyPort);
            socket.setSoTimeout(15_000);
            String authority = "127.0.0.1:" + targetPort;
            socket.getOutputStream()
                    .write(("CONNECT " + authority + " HTTP/1.1\r\nHost: " + authority
                                    + "\r\nProxy-Authorization: Basic "
                                    + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8))
                                    + "\r\n\r\n")
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
            return new Tunnel(socket);
        }

        void assertEchoes(String text) throws IOException {
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            socket.getOutputStream().write(bytes);
            socket.getOutputStream().flush();
            byte[] back = socket.getInputStream().readNBytes(bytes.length);
            assertThat(new String(back, StandardCharsets.UTF_8)).isEqualTo(text);
        }

        boolean closed() {
            try {
                socket.setSoTimeout(200);
                return socket.getInputStream().read() < 0;
            } catch (SocketTimeoutException e) {
                return false;
            } catch (IOException e) {
                return true;
            } finally {
                restoreTimeout();
            }
        }

        private void restoreTimeout() {
            try {
                socket.setSoTimeout(15_000);
            } catch (IOException e) {
                // closed: the next read says so
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
