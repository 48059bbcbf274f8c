package dev.egress.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.egress.ydb.coordination.testing.ListenPorts;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * One tenant's 600 tunnels that never read, from a target that streams as fast as it can, through the whole platform
 * (real processes): another tenant's tunnels and deliveries through the same Borders keep working, no service runs out
 * of memory, and every refusal comes before the tunnel's {@code 200} (issue 37's measurement, as a test).
 *
 * <p>Before the Border read a target only as fast as each buffer left its HTTP/2 write path, border-a ran out of direct
 * memory here ({@code OutOfMemoryError: Cannot reserve 65536 bytes of direct buffer memory}, 256 MiB with the JVMs of
 * {@link ServiceProcess}) and tunnels ended {@code border-lost} after their {@code 200}: a stream that still showed
 * writable let buffers pile up in the Border's HTTP/2 write path (App advertises a 1 MiB window per stream). About 80 s on a shared machine, most of it starting
 * the platform.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ProxyFloodIT {

    private static final int PROXY_PORT = ListenPorts.freeOutsideEphemeralRange();
    private static final String ACME = "acme:" + Platform.API_TOKEN;
    private static final String SMALL_CO = "small-co:" + Platform.API_TOKEN;
    private static final int FLOOD_TUNNELS = 600;

    private static Platform platform;
    private static ServerSocket flood;
    private static ServerSocket echo;
    private static HttpServer sink;
    private static ExecutorService pool;
    private static final AtomicInteger floodConnections = new AtomicInteger();
    private static final List<Socket> held = new ArrayList<>();
    private static final ConcurrentLinkedQueue<Socket> targetSides = new ConcurrentLinkedQueue<>();
    private static final List<String> SERVICES = List.of("border-a", "border-b", "app-0");
    /** Where each service's log stood before this class started it: logs append across the tests of one run. */
    private static final Map<String, Long> logStarts = new HashMap<>();

    @BeforeAll
    static void start() throws Exception {
        pool = Executors.newCachedThreadPool();
        flood = new ServerSocket(0, 1000, InetAddress.getLoopbackAddress());
        pool.submit(ProxyFloodIT::streamToEveryone);
        echo = new ServerSocket(0, 100, InetAddress.getLoopbackAddress());
        pool.submit(ProxyFloodIT::echoToEveryone);
        sink = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        sink.createContext("/hook", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        sink.setExecutor(pool);
        sink.start();
        Path logs = Path.of(System.getProperty("egress.logs", "target/system-logs"));
        for (String service : SERVICES) {
            Path log = logs.resolve(service + ".log");
            logStarts.put(service, Files.exists(log) ? Files.size(log) : 0L);
        }
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
        synchronized (held) {
            for (Socket socket : held) {
                socket.close();
            }
        }
        for (Socket socket : targetSides) {
            socket.close();
        }
        if (platform != null) {
            platform.close();
        }
        if (sink != null) {
            sink.stop(0);
        }
        for (ServerSocket server : new ServerSocket[] {flood, echo}) {
            if (server != null) {
                server.close();
            }
        }
        if (pool != null) {
            pool.shutdownNow();
        }
    }

    /** The flood target: writes to every connection as fast as it can, never reads. */
    private static void streamToEveryone() {
        byte[] chunk = new byte[64 * 1024];
        while (!flood.isClosed()) {
            try {
                Socket socket = flood.accept();
                floodConnections.incrementAndGet();
                targetSides.add(socket);
                pool.submit(() -> {
                    try (OutputStream out = socket.getOutputStream()) {
                        while (true) {
                            out.write(chunk);
                        }
                    } catch (IOException e) {
                        // the tunnel ended
                    }
                });
            } catch (IOException e) {
                return;
            }
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
    @Order(2)
    void sixHundredTunnelsThatNeverReadLeaveOtherTenantsWorkingAndNoServiceOutOfMemory() throws Exception {
        long started = System.nanoTime();
        List<Future<ProxyConnect.Answer>> opening = new ArrayList<>();
        // 32 senders at a time, each under the proxy's share of connections still sending their head.
        ExecutorService senders = Executors.newFixedThreadPool(32);
        for (int i = 0; i < FLOOD_TUNNELS; i++) {
            opening.add(senders.submit(() -> {
                Socket socket = connect("127.0.0.1");
                synchronized (held) {
                    held.add(socket);
                }
                return ProxyConnect.connect(socket, "127.0.0.1:" + flood.getLocalPort(), ACME);
            }));
        }
        List<ProxyConnect.Answer> answers = new ArrayList<>();
        for (Future<ProxyConnect.Answer> answer : opening) {
            answers.add(answer.get());
        }
        senders.shutdown();
        long up = answers.stream().filter(a -> a.status() == 200).count();
        List<String> refused = answers.stream()
                .filter(a -> a.status() != 200)
                .map(ProxyConnect.Answer::head)
                .toList();
        System.out.printf(
                "ProxyFloodIT: %d of %d tunnels up, %d refused before their 200, %d target connections, %d ms%n",
                up, FLOOD_TUNNELS, refused.size(), floodConnections.get(), (System.nanoTime() - started) / 1_000_000);
        // Refused with an answer (a problem), never by a closed connection: the sender knows the tunnel is not up.
        assertThat(refused).allSatisfy(head -> assertThat(head).matches("(?s)HTTP/1.1 [45][0-9][0-9] .*"));

        // Every tunnel that is up has its target connection, which writes until back pressure stops it.
        await().atMost(Duration.ofSeconds(30)).until(() -> floodConnections.get() >= up);

        // Another tenant: a tunnel through the shared pool (border-a's .2 or border-b's .5) and a delivery.
        try (Socket socket = connect("127.0.0.1")) {
            ProxyConnect.Answer answer = ProxyConnect.connect(socket, "127.0.0.1:" + echo.getLocalPort(), SMALL_CO);
            assertThat(answer.head()).startsWith("HTTP/1.1 200");
            socket.getOutputStream().write("still here".getBytes(StandardCharsets.UTF_8));
            assertThat(new String(socket.getInputStream().readNBytes(10), StandardCharsets.UTF_8))
                    .isEqualTo("still here");
        }
        Http.Response delivery = platform.http.post(
                platform.appUri(0, "/v1/deliveries"),
                Platform.API_TOKEN,
                "{\"tenantId\":\"small-co\",\"url\":\"http://127.0.0.1:%d/hook\",\"payload\":{\"n\":1}}"
                        .formatted(sink.getAddress().getPort()));
        assertThat(delivery.status()).as(delivery.text()).isEqualTo(200);

        for (String service : SERVICES) {
            byte[] whole = Files.readAllBytes(platform.logs.resolve(service + ".log"));
            int from = (int) Math.min(whole.length, logStarts.get(service));
            String log = new String(whole, from, whole.length - from, StandardCharsets.UTF_8);
            assertThat(log)
                    .as(service + "'s log")
                    .doesNotContain("OutOfMemoryError")
                    .doesNotContain("direct buffer memory")
                    .as(service + ": no tunnel answered 200 was lost with its Border")
                    .doesNotContain("outcome=border-lost");
        }
        System.out.printf("ProxyFloodIT: flood test %d ms%n", (System.nanoTime() - started) / 1_000_000);
    }

    private static Socket connect(String from) throws IOException {
        return ProxyConnect.open(from, PROXY_PORT);
    }
}
