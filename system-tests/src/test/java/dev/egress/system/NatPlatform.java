package dev.egress.system;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The platform of the NAT tests inside a {@link NatNetwork}: the coordination node, one Border binding
 * {@value NatNetwork#BIND} for {@value NatNetwork#PUBLIC}, App, all in the border namespace (plaintext and
 * unsigned: these tests are about the NAT, the trust chain has its own), and the customer's webhook receiver
 * in the customer namespace, which appends each caller's address to a file.
 */
final class NatPlatform implements AutoCloseable {

    static final String API_TOKEN = "nat-api-token";
    static final String INTERNAL_TOKEN = "nat-internal-token";
    static final String OPERATOR_TOKEN = "nat-operator-token";
    // Fixed ports are safe here: they are bound inside the test's own fresh namespaces only.
    static final int COORDINATION_PORT = 17136;
    static final int BORDER_PORT = 17181;
    static final int APP_PORT = 17080;
    static final int RECEIVER_PORT = 17900;
    static final String APP = "http://127.0.0.1:" + APP_PORT;
    static final String RECEIVER_URL = "http://" + NatNetwork.CUSTOMER_IP + ":" + RECEIVER_PORT + "/hook";

    private final List<Process> processes = new ArrayList<>();
    private final Path peers;
    private final Path work;
    private final Path logs;

    private NatPlatform(Path work, Path logs) {
        this.work = work;
        this.logs = logs;
        this.peers = work.resolve("peers.txt");
    }

    /**
     * Starts everything and waits until App answers and the receiver listens.
     *
     * @param name       the test's name (its log directory, its skip message)
     * @param borderArgs more Border arguments
     * @return the platform
     * @throws IOException if the work files cannot be written
     */
    static NatPlatform start(String name, List<String> borderArgs) throws IOException {
        Path work = Files.createTempDirectory("egress-" + name);
        Path logs =
                Path.of(System.getProperty("egress.logs", work.resolve("logs").toString()), name);
        NatPlatform platform = new NatPlatform(work, logs);
        platform.launch(name, borderArgs);
        return platform;
    }

    private void launch(String name, List<String> borderArgs) throws IOException {
        Path tenants = Files.writeString(work.resolve("tenants.yaml"), """
                sharedPool: []
                tenants:
                  - id: acme
                    dedicatedIps: [%s]
                """.formatted(NatNetwork.PUBLIC));
        Path receiver = Files.writeString(work.resolve("NatReceiver.java"), RECEIVER_SOURCE);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> jvm = List.of(java, "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss512k");
        String registry = "--egress.registry.connection-string=grpc://127.0.0.1:" + COORDINATION_PORT + "/local";

        start(
                NatNetwork.CUSTOMER,
                List.of(java, receiver.toString(), String.valueOf(RECEIVER_PORT), peers.toString()),
                "receiver");
        start(
                NatNetwork.BORDER,
                with(
                        jvm,
                        "-jar",
                        jar(name, "coordination"),
                        "--port",
                        String.valueOf(COORDINATION_PORT),
                        "--database",
                        "/local"),
                "coordination");
        List<String> border = with(
                jvm,
                "-jar",
                jar(name, "border"),
                "--server.port=" + BORDER_PORT,
                "--egress.border.id=border-nat",
                "--egress.border.ips=" + NatNetwork.BIND + "=" + NatNetwork.PUBLIC,
                "--egress.border.advertised-url=http://127.0.0.1:" + BORDER_PORT,
                "--egress.border.drain-timeout=2s",
                "--egress.security.insecure-local=true",
                "--egress.security.internal-token=" + INTERNAL_TOKEN,
                "--egress.security.operator-token=" + OPERATOR_TOKEN,
                "--egress.ssrf.allowed-ranges=" + NatNetwork.CUSTOMER_IP + "/32:" + RECEIVER_PORT,
                "--egress.limits.connect-timeout=2s",
                registry);
        border.addAll(borderArgs);
        start(NatNetwork.BORDER, border, "border");
        start(
                NatNetwork.BORDER,
                with(
                        jvm,
                        "-jar",
                        jar(name, "app"),
                        "--server.port=" + APP_PORT,
                        "--egress.security.api-tokens=" + API_TOKEN,
                        "--egress.security.insecure-local=true",
                        "--egress.security.internal-token=" + INTERNAL_TOKEN,
                        "--egress.security.operator-token=" + OPERATOR_TOKEN,
                        "--egress.tenants.file=" + tenants,
                        "--egress.dispatch.max-attempts=1",
                        registry),
                "app");
        await("App answers")
                .atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> NatNetwork.curl("GET", APP + "/v1/tenants/acme/egress", API_TOKEN, null)
                                .code()
                        == 200);
        await("receiver listening").atMost(Duration.ofSeconds(60)).until(() -> Files.exists(peers));
    }

    /**
     * Starts one more process in a namespace, stopped with the platform.
     *
     * @param ns      the namespace
     * @param command the command
     * @param logName its log file's name
     */
    void start(String ns, List<String> command, String logName) {
        processes.add(NatNetwork.start(ns, command, logs.resolve(logName + ".log")));
    }

    /**
     * Writes a source file into the platform's work directory (for the JDK's source launcher).
     *
     * @param name   the file name
     * @param source its content
     * @return its path
     * @throws IOException if it cannot be written
     */
    Path source(String name, String source) throws IOException {
        return Files.writeString(work.resolve(name), source);
    }

    /**
     * The addresses the customer's receiver saw, one per delivery.
     *
     * @return the callers' addresses
     * @throws IOException if the file cannot be read
     */
    List<String> peers() throws IOException {
        return Files.readAllLines(peers);
    }

    /**
     * Sends one webhook for acme to the receiver.
     *
     * @param event the payload's event name
     * @return App's answer
     */
    static HostCommand.Result deliver(String event) {
        return NatNetwork.curl(
                "POST",
                APP + "/v1/deliveries",
                API_TOKEN,
                "{\"tenantId\":\"acme\",\"url\":\"%s\",\"payload\":{\"event\":\"%s\"}}".formatted(RECEIVER_URL, event));
    }

    /**
     * Stops a test's platform, then deletes its network; either may be null (a skipped or failed start).
     *
     * @param platform the platform, or null
     * @param network  its network, or null
     */
    static void stop(NatPlatform platform, NatNetwork network) {
        if (platform != null) {
            platform.close();
        }
        if (network != null) {
            network.close();
        }
    }

    @Override
    public void close() {
        for (Process p : processes) {
            p.destroy();
        }
        for (Process p : processes) {
            try {
                if (!p.waitFor(10, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static List<String> with(List<String> head, String... tail) {
        List<String> all = new ArrayList<>(head);
        all.addAll(List.of(tail));
        return all;
    }

    private static String jar(String test, String name) {
        String path = System.getProperty("egress.jar." + name);
        Assumptions.assumeTrue(
                path != null && Files.exists(Path.of(path)),
                () -> test + " skipped: " + name + " jar missing (build with -am package): " + path);
        return path;
    }

    /**
     * The customer's webhook receiver, run with the JDK's source launcher inside the customer namespace:
     * it appends each caller's address to a file and answers 200.
     */
    private static final String RECEIVER_SOURCE = """
            import com.sun.net.httpserver.HttpServer;
            import java.net.InetSocketAddress;
            import java.nio.charset.StandardCharsets;
            import java.nio.file.Files;
            import java.nio.file.Path;
            import java.nio.file.StandardOpenOption;

            public class NatReceiver {
                public static void main(String[] args) throws Exception {
                    Path peers = Path.of(args[1]);
                    HttpServer server = HttpServer.create(new InetSocketAddress(Integer.parseInt(args[0])), 16);
                    server.createContext("/", exchange -> {
                        exchange.getRequestBody().readAllBytes();
                        String peer = exchange.getRemoteAddress().getAddress().getHostAddress();
                        synchronized (NatReceiver.class) {
                            Files.writeString(peers, peer + "\\n", StandardOpenOption.APPEND);
                        }
                        byte[] body = "{\\"ok\\":true}".getBytes(StandardCharsets.UTF_8);
                        exchange.getResponseHeaders().set("Content-Type", "application/json");
                        exchange.sendResponseHeaders(200, body.length);
                        exchange.getResponseBody().write(body);
                        exchange.close();
                    });
                    server.start();
                    Files.writeString(peers, "", StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
                }
            }
            """;
}
