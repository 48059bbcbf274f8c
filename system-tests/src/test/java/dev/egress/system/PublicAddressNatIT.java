package dev.egress.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A Border behind a NAT, for real: it binds the private {@value NatNetwork#BIND}, a router namespace
 * rewrites that to {@value NatNetwork#PUBLIC} with an nftables {@code snat} rule, and the customer's
 * firewall accepts only the public address. App routes the tenant by the public address, the Border
 * binds the private one, the receiver sees the public one, and every view a customer reads names only
 * the public address. Before the router translates, the same delivery is dropped by the customer's
 * firewall: the allowlist, not luck, decides.
 *
 * <p>Needs root, {@code ip}, {@code nft} and {@code curl}; skipped with the reason otherwise. Every
 * process runs inside the test's namespaces (see {@link NatNetwork}), which are deleted afterwards.
 */
class PublicAddressNatIT {

    private static final String API_TOKEN = "nat-api-token";
    private static final String INTERNAL_TOKEN = "nat-internal-token";
    private static final String OPERATOR_TOKEN = "nat-operator-token";
    // Fixed ports are safe here: they are bound inside the test's own fresh namespaces only.
    private static final int COORDINATION_PORT = 17136;
    private static final int BORDER_PORT = 17181;
    private static final int APP_PORT = 17080;
    private static final int RECEIVER_PORT = 17900;
    private static final String APP = "http://127.0.0.1:" + APP_PORT;
    private static final String RECEIVER_URL = "http://" + NatNetwork.CUSTOMER_IP + ":" + RECEIVER_PORT + "/hook";

    private static NatNetwork network;
    private static final List<Process> processes = new ArrayList<>();
    private static Path work;
    private static Path peers;

    @BeforeAll
    static void start() throws Exception {
        String unavailable = NatNetwork.unavailableReason();
        Assumptions.assumeTrue(unavailable == null, () -> "PublicAddressNatIT skipped: " + unavailable);
        work = Files.createTempDirectory("egress-nat-it");
        peers = work.resolve("peers.txt");
        Path logs =
                Path.of(System.getProperty("egress.logs", work.resolve("logs").toString()), "nat");
        Path tenants = Files.writeString(work.resolve("tenants.yaml"), """
                sharedPool: []
                tenants:
                  - id: acme
                    dedicatedIps: [%s]
                """.formatted(NatNetwork.PUBLIC));
        Path receiver = Files.writeString(work.resolve("NatReceiver.java"), RECEIVER_SOURCE);

        network = NatNetwork.create(RECEIVER_PORT);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> jvm = List.of(java, "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss512k");
        String registry = "--egress.registry.connection-string=grpc://127.0.0.1:" + COORDINATION_PORT + "/local";

        processes.add(NatNetwork.start(
                NatNetwork.CUSTOMER,
                List.of(java, receiver.toString(), String.valueOf(RECEIVER_PORT), peers.toString()),
                logs.resolve("receiver.log")));
        processes.add(NatNetwork.start(
                NatNetwork.BORDER,
                with(
                        jvm,
                        "-jar",
                        jar("coordination"),
                        "--port",
                        String.valueOf(COORDINATION_PORT),
                        "--database",
                        "/local"),
                logs.resolve("coordination.log")));
        processes.add(NatNetwork.start(
                NatNetwork.BORDER,
                with(
                        jvm,
                        "-jar",
                        jar("border"),
                        "--server.port=" + BORDER_PORT,
                        "--egress.border.id=border-nat",
                        "--egress.border.ips=" + NatNetwork.BIND + "=" + NatNetwork.PUBLIC,
                        "--egress.border.advertised-url=http://127.0.0.1:" + BORDER_PORT,
                        "--egress.border.drain-timeout=2s",
                        // Plaintext and unsigned: this test is about the NAT; the trust chain has its own tests.
                        "--egress.security.insecure-local=true",
                        "--egress.security.internal-token=" + INTERNAL_TOKEN,
                        "--egress.security.operator-token=" + OPERATOR_TOKEN,
                        "--egress.ssrf.allowed-ranges=" + NatNetwork.CUSTOMER_IP + "/32:" + RECEIVER_PORT,
                        "--egress.limits.connect-timeout=2s",
                        registry),
                logs.resolve("border.log")));
        processes.add(NatNetwork.start(
                NatNetwork.BORDER,
                with(
                        jvm,
                        "-jar",
                        jar("app"),
                        "--server.port=" + APP_PORT,
                        "--egress.security.api-tokens=" + API_TOKEN,
                        // Plaintext and unsigned: this test is about the NAT; the trust chain has its own tests.
                        "--egress.security.insecure-local=true",
                        "--egress.security.internal-token=" + INTERNAL_TOKEN,
                        "--egress.security.operator-token=" + OPERATOR_TOKEN,
                        "--egress.tenants.file=" + tenants,
                        "--egress.dispatch.max-attempts=1",
                        registry),
                logs.resolve("app.log")));

        await("App ready with the Border's IP routed")
                .atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> NatNetwork.curl("GET", APP + "/v1/tenants/acme/egress", API_TOKEN, null)
                        .output()
                        .contains("\"available\":true"));
        await("receiver listening").atMost(Duration.ofSeconds(60)).until(() -> Files.exists(peers));
    }

    @AfterAll
    static void stop() {
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
        if (network != null) {
            network.close();
        }
    }

    @Test
    void theReceiverSeesAndAllowlistsOnlyThePublicAddress() throws Exception {
        // Without the NAT the packets leave from the private bind address: the customer's allowlist drops them.
        HostCommand.Result untranslated = deliver("before-nat");
        assertThat(untranslated.code()).as(untranslated.output()).isNotEqualTo(200);
        assertThat(network.droppedByCustomer()).isPositive();
        assertThat(Files.readAllLines(peers)).isEmpty();

        network.translateBindToPublic();
        HostCommand.Result delivered = deliver("after-nat");

        assertThat(delivered.code()).as(delivered.output()).isEqualTo(200);
        JsonNode answer = Http.JSON.readTree(delivered.output());
        assertThat(answer.get("egressIp").asString()).isEqualTo(NatNetwork.PUBLIC);
        assertThat(answer.get("response").get("status").asInt()).isEqualTo(200);
        assertThat(Files.readAllLines(peers)).containsExactly(NatNetwork.PUBLIC);
        assertThat(network.translated()).isPositive();
        assertThat(network.acceptedByCustomer()).isPositive();
    }

    @Test
    void everyViewACustomerReadsNamesOnlyThePublicAddress() {
        HostCommand.Result tenant = NatNetwork.curl("GET", APP + "/v1/tenants/acme/egress", API_TOKEN, null);
        assertThat(tenant.code()).isEqualTo(200);
        assertThat(tenant.output())
                .contains("\"ip\":\"" + NatNetwork.PUBLIC + "\"")
                .doesNotContain(NatNetwork.BIND);

        HostCommand.Result ips = NatNetwork.curl("GET", APP + "/v1/egress/ips", API_TOKEN, null);
        assertThat(ips.code()).isEqualTo(200);
        assertThat(ips.output())
                .contains("\"ip\":\"" + NatNetwork.PUBLIC + "\"")
                .doesNotContain(NatNetwork.BIND);

        // The operator's fleet view shows both, so an operator can match them with the cloud's console.
        HostCommand.Result fleet = NatNetwork.curl("GET", APP + "/ops/v1/fleet", OPERATOR_TOKEN, null);
        assertThat(fleet.code()).isEqualTo(200);
        assertThat(fleet.output())
                .contains("\"ip\":\"%s\",\"bind\":\"%s\"".formatted(NatNetwork.PUBLIC, NatNetwork.BIND));
    }

    private static HostCommand.Result deliver(String event) {
        return NatNetwork.curl(
                "POST",
                APP + "/v1/deliveries",
                API_TOKEN,
                "{\"tenantId\":\"acme\",\"url\":\"%s\",\"payload\":{\"event\":\"%s\"}}".formatted(RECEIVER_URL, event));
    }

    private static List<String> with(List<String> head, String... tail) {
        List<String> all = new ArrayList<>(head);
        all.addAll(List.of(tail));
        return all;
    }

    private static String jar(String name) {
        String path = System.getProperty("egress.jar." + name);
        Assumptions.assumeTrue(
                path != null && Files.exists(Path.of(path)),
                () -> "PublicAddressNatIT skipped: " + name + " jar missing (build with -am package): " + path);
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
