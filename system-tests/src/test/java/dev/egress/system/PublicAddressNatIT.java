package dev.egress.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
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

    private static NatNetwork network;
    private static NatPlatform platform;

    @BeforeAll
    static void start() throws Exception {
        String unavailable = NatNetwork.unavailableReason();
        Assumptions.assumeTrue(unavailable == null, () -> "PublicAddressNatIT skipped: " + unavailable);
        network = NatNetwork.create(NatPlatform.RECEIVER_PORT);
        platform = NatPlatform.start("nat", List.of());
        await("App routes the Border's IP")
                .atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> NatNetwork.curl(
                                "GET", NatPlatform.APP + "/v1/tenants/acme/egress", NatPlatform.API_TOKEN, null)
                        .output()
                        .contains("\"available\":true"));
    }

    @AfterAll
    static void stop() {
        NatPlatform.stop(platform, network);
    }

    @Test
    void theReceiverSeesAndAllowlistsOnlyThePublicAddress() throws Exception {
        // Without the NAT the packets leave from the private bind address: the customer's allowlist drops them.
        HostCommand.Result untranslated = NatPlatform.deliver("before-nat");
        assertThat(untranslated.code()).as(untranslated.output()).isNotEqualTo(200);
        assertThat(network.droppedByCustomer()).isPositive();
        assertThat(platform.peers()).isEmpty();

        network.translateBindToPublic();
        HostCommand.Result delivered = NatPlatform.deliver("after-nat");

        assertThat(delivered.code()).as(delivered.output()).isEqualTo(200);
        JsonNode answer = Http.JSON.readTree(delivered.output());
        assertThat(answer.get("egressIp").asString()).isEqualTo(NatNetwork.PUBLIC);
        assertThat(answer.get("response").get("status").asInt()).isEqualTo(200);
        assertThat(platform.peers()).containsExactly(NatNetwork.PUBLIC);
        assertThat(network.translated()).isPositive();
        assertThat(network.acceptedByCustomer()).isPositive();
    }

    @Test
    void everyViewACustomerReadsNamesOnlyThePublicAddress() {
        HostCommand.Result tenant =
                NatNetwork.curl("GET", NatPlatform.APP + "/v1/tenants/acme/egress", NatPlatform.API_TOKEN, null);
        assertThat(tenant.code()).isEqualTo(200);
        assertThat(tenant.output())
                .contains("\"ip\":\"" + NatNetwork.PUBLIC + "\"")
                .doesNotContain(NatNetwork.BIND);

        HostCommand.Result ips =
                NatNetwork.curl("GET", NatPlatform.APP + "/v1/egress/ips", NatPlatform.API_TOKEN, null);
        assertThat(ips.code()).isEqualTo(200);
        assertThat(ips.output())
                .contains("\"ip\":\"" + NatNetwork.PUBLIC + "\"")
                .doesNotContain(NatNetwork.BIND);

        // The operator's fleet view shows both, so an operator can match them with the cloud's console.
        HostCommand.Result fleet =
                NatNetwork.curl("GET", NatPlatform.APP + "/ops/v1/fleet", NatPlatform.OPERATOR_TOKEN, null);
        assertThat(fleet.code()).isEqualTo(200);
        assertThat(fleet.output())
                .contains("\"ip\":\"%s\",\"bind\":\"%s\"".formatted(NatNetwork.PUBLIC, NatNetwork.BIND));
    }
}
