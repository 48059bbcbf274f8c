package dev.egress.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The Border proves its egress identity through a real NAT. The router of {@link NatNetwork} first translates
 * the Border's bind address to {@value NatNetwork#WRONG_PUBLIC}, as a cloud's default SNAT does, while the
 * Border announces {@value NatNetwork#PUBLIC}. An echo service in the customer's network answers each caller's
 * address: the Border sees the mismatch, withholds the IP (App's views say why), and acme's webhook is refused
 * with 503 instead of leaving from an address the customer never allowlisted. Once the router translates to the
 * right address, the next check confirms it and the webhook arrives from {@value NatNetwork#PUBLIC}.
 *
 * <p>Needs root, {@code ip}, {@code nft} and {@code curl}; skipped with the reason otherwise.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EgressIdentityNatIT {

    private static final int ECHO_PORT = 17901;

    private static NatNetwork network;
    private static NatPlatform platform;

    @BeforeAll
    static void start() throws Exception {
        String unavailable = NatNetwork.unavailableReason();
        Assumptions.assumeTrue(unavailable == null, () -> "EgressIdentityNatIT skipped: " + unavailable);
        network = NatNetwork.create(NatPlatform.RECEIVER_PORT);
        network.openToEverySource(ECHO_PORT);
        network.translateBindTo(NatNetwork.WRONG_PUBLIC);
        platform = NatPlatform.start(
                "identity",
                List.of(
                        "--egress.border.egress-check.url=http://" + NatNetwork.CUSTOMER_IP + ":" + ECHO_PORT + "/",
                        "--egress.border.egress-check.interval=1s",
                        "--egress.border.egress-check.timeout=900ms"));
        String java = java();
        platform.start(
                NatNetwork.CUSTOMER,
                List.of(java, platform.source("Echo.java", ECHO_SOURCE).toString(), String.valueOf(ECHO_PORT)),
                "echo");
    }

    @AfterAll
    static void stop() {
        NatPlatform.stop(platform, network);
    }

    @Test
    @Order(1)
    void anIpTranslatedToTheWrongAddressIsWithheldAndNothingLeavesFromIt() throws Exception {
        await("the Border withholds the IP and says why")
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> fleet().contains("\"reason\":\"egress-identity-mismatch\""));
        assertThat(fleet())
                .contains("\"ip\":\"%s\"".formatted(NatNetwork.PUBLIC))
                .contains("\"status\":\"DISABLED\"");
        assertThat(NatNetwork.curl("GET", NatPlatform.APP + "/v1/tenants/acme/egress", NatPlatform.API_TOKEN, null)
                        .output())
                .contains("\"available\":false");

        HostCommand.Result refused = NatPlatform.deliver("while-mistranslated");

        assertThat(refused.code()).as(refused.output()).isEqualTo(503);
        assertThat(refused.output()).contains("no-egress-available");
        assertThat(platform.peers()).isEmpty();
    }

    @Test
    @Order(2)
    void theIpIsServedAgainOnceItLeavesAsItsPublicAddress() throws Exception {
        network.translateBindToPublic();

        await("the next check confirms the IP")
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> NatNetwork.curl(
                                "GET", NatPlatform.APP + "/v1/tenants/acme/egress", NatPlatform.API_TOKEN, null)
                        .output()
                        .contains("\"available\":true"));
        HostCommand.Result delivered = NatPlatform.deliver("after-fix");

        assertThat(delivered.code()).as(delivered.output()).isEqualTo(200);
        assertThat(platform.peers()).containsExactly(NatNetwork.PUBLIC);
        assertThat(fleet()).doesNotContain("egress-identity-mismatch");
    }

    private static String fleet() {
        return NatNetwork.curl("GET", NatPlatform.APP + "/ops/v1/fleet", NatPlatform.OPERATOR_TOKEN, null)
                .output();
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** A checkip-style echo service: answers every caller with its address, as plain text. */
    private static final String ECHO_SOURCE = """
            import com.sun.net.httpserver.HttpServer;
            import java.net.InetSocketAddress;
            import java.nio.charset.StandardCharsets;

            public class Echo {
                public static void main(String[] args) throws Exception {
                    HttpServer server = HttpServer.create(new InetSocketAddress(Integer.parseInt(args[0])), 16);
                    server.createContext("/", exchange -> {
                        byte[] body = (exchange.getRemoteAddress().getAddress().getHostAddress() + "\\n")
                                .getBytes(StandardCharsets.US_ASCII);
                        exchange.getResponseHeaders().set("Content-Type", "text/plain");
                        exchange.sendResponseHeaders(200, body.length);
                        exchange.getResponseBody().write(body);
                        exchange.close();
                    });
                    server.start();
                }
            }
            """;
}
