package dev.egress.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Pod-network Borders only work with source-based routing on the secondary interface: otherwise a socket
 * bound to net1's address leaves through eth0's default route and is dropped as spoofed. The example
 * NetworkAttachmentDefinition provides it, and the Multus values use that network with the Borders' IPs.
 */
class MultusExampleTest {

    private final Map<String, Object> attachment = ChartRendering.yaml()
            .load(ChartRendering.read(ChartRendering.EXAMPLES.resolve("networkattachmentdefinition-sbr.yaml")));

    @Test
    void theSecondaryNetworkChainsSourceBasedRoutingAfterTheInterface() {
        JsonObject config = JsonParser.parseString(Manifests.at(attachment, "spec", "config"))
                .getAsJsonObject();
        JsonArray plugins = config.getAsJsonArray("plugins");

        assertThat(Manifests.<String>at(attachment, "apiVersion")).isEqualTo("k8s.cni.cncf.io/v1");
        assertThat(Manifests.<String>at(attachment, "kind")).isEqualTo("NetworkAttachmentDefinition");
        assertThat(plugins).hasSize(2);
        JsonObject link = plugins.get(0).getAsJsonObject();
        assertThat(link.get("type").getAsString()).isIn("macvlan", "ipvlan");
        assertThat(link.getAsJsonObject("capabilities").get("ips").getAsBoolean())
                .as("static IPs come from each pod's annotation")
                .isTrue();
        assertThat(link.getAsJsonObject("ipam").get("type").getAsString()).isEqualTo("static");
        assertThat(link.getAsJsonObject("ipam")
                        .getAsJsonArray("routes")
                        .get(0)
                        .getAsJsonObject()
                        .get("dst")
                        .getAsString())
                .as("the uplink's default route, which sbr moves into a table used only for net1's source addresses")
                .isEqualTo("0.0.0.0/0");
        assertThat(plugins.get(1).getAsJsonObject().get("type").getAsString()).isEqualTo("sbr");
    }

    @Test
    void everyMultusBorderAttachesThatNetworkWithExactlyItsDedicatedIps() {
        Manifests multus = ChartRendering.render().example("values-multus.yaml").manifests();
        String network = Manifests.at(attachment, "metadata", "name");

        for (Map<String, Object> border : multus.ofKind("StatefulSet").toList()) {
            JsonArray networks = JsonParser.parseString(
                            Manifests.podAnnotations(border).get("k8s.v1.cni.cncf.io/networks"))
                    .getAsJsonArray();
            JsonObject selection = networks.get(0).getAsJsonObject();
            List<String> ips = new ArrayList<>();
            for (JsonElement ip : selection.getAsJsonArray("ips")) {
                ips.add(ip.getAsString().replaceAll("/\\d+$", ""));
            }

            assertThat(selection.get("name").getAsString()).isEqualTo(network);
            assertThat(String.join(",", ips)).isEqualTo(Manifests.env(border).get("EGRESS_BORDER_IPS"));
        }
    }
}
