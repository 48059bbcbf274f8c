package dev.egress.helm;

import static dev.egress.helm.Manifests.at;
import static dev.egress.helm.Manifests.podLabels;
import static dev.egress.helm.Manifests.podSpec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Borders hold dedicated IPs, so the workload around them must never run two pods for one Border, never
 * restart them because the chart changed around them, and never place them where they cannot bind.
 */
class BorderWorkloadTest {

    private final Manifests hostNetwork =
            ChartRendering.render().example("values-hostnetwork.yaml").manifests();

    @Test
    void eachBorderIsAStatefulSetOfOnePodThatCreatesAReplacementOnlyOnceTheOldPodIsGone() {
        assertThat(hostNetwork.ofKind("Deployment"))
                .extracting(d -> at(d, "metadata", "name"))
                .containsExactly(ChartRendering.PREFIX + "-app");
        for (String id : List.of("border-a", "border-b")) {
            Map<String, Object> border = hostNetwork.border(id);
            assertThat(Manifests.<Integer>at(border, "spec", "replicas")).isEqualTo(1);
            assertThat(Manifests.<String>at(border, "spec", "podManagementPolicy"))
                    .isEqualTo("OrderedReady");
            assertThat(Manifests.<String>at(border, "spec", "serviceName"))
                    .isEqualTo(ChartRendering.PREFIX + "-border");
            assertThat(podLabels(border)).containsEntry("egress.dev/border-id", id);
        }
        assertThat(hostNetwork.names()).contains("Service/" + ChartRendering.PREFIX + "-border");
    }

    @Test
    void anUpgradeRestartsNoBorderUntilTheOperatorRollsThemOneAtATime() {
        assertThat(hostNetwork.ofKind("StatefulSet"))
                .allSatisfy(s -> assertThat(Manifests.<String>at(s, "spec", "updateStrategy", "type"))
                        .isEqualTo("OnDelete"));

        Manifests rolling = ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .set("border.updateStrategy", "RollingUpdate")
                .manifests();
        assertThat(Manifests.<String>at(rolling.border("border-a"), "spec", "updateStrategy", "type"))
                .isEqualTo("RollingUpdate");
    }

    @Test
    void aNewChartVersionWithTheSameValuesLeavesEveryPodTemplateUnchanged(@TempDir Path work) {
        Path bumped = ChartRendering.copyOfChart(work, null, "9.8.7");
        Manifests after =
                ChartRendering.render(bumped).example("values-hostnetwork.yaml").manifests();

        assertThat(Manifests.<Map<String, String>>at(after.app(), "metadata", "labels"))
                .as("the chart version is still on the objects themselves")
                .containsEntry("helm.sh/chart", "egress-platform-9.8.7");
        for (Map<String, Object> workload : hostNetwork.workloads()) {
            String name = at(workload, "metadata", "name");
            Map<String, Object> same = after.workloads().stream()
                    .filter(w -> name.equals(at(w, "metadata", "name")))
                    .findFirst()
                    .orElseThrow();
            assertThat(Manifests.<Map<String, Object>>at(same, "spec", "template"))
                    .as(name)
                    .isEqualTo(at(workload, "spec", "template"));
        }
    }

    @Test
    void podTemplatesCarryNoVersionLabelAndNoChecksumOfTheTokens() {
        for (Map<String, Object> workload : hostNetwork.workloads()) {
            assertThat(podLabels(workload)).doesNotContainKeys("helm.sh/chart", "app.kubernetes.io/version");
            assertThat(Manifests.podAnnotations(workload)).doesNotContainKey("checksum/secret");
        }
    }

    @Test
    void hostNetworkBordersArePinnedToTheNodeThatCarriesTheirIdAsALabel() {
        Manifests custom = ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .set("border.placement.nodeLabelKey", "example.com/egress-border")
                .set("border.nodeSelector.node\\.example\\.com/pool", "egress")
                .manifests();

        assertThat(Manifests.<Map<String, String>>at(podSpec(hostNetwork.border("border-b")), "nodeSelector"))
                .containsExactly(entry("egress.dev/border-id", "border-b"));
        assertThat(Manifests.<Map<String, String>>at(podSpec(custom.border("border-a")), "nodeSelector"))
                .containsOnly(entry("example.com/egress-border", "border-a"), entry("node.example.com/pool", "egress"));
    }

    @Test
    void bordersArePinnedByNodeNameWhenAsked() {
        Manifests byName = ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .set("border.placement.pinBy", "nodeName")
                .set("border.instances[0].nodeName", "egress-node-1")
                .set("border.instances[1].nodeName", "egress-node-2")
                .manifests();

        assertThat(Manifests.<Map<String, String>>at(podSpec(byName.border("border-a")), "nodeSelector"))
                .containsExactly(entry("kubernetes.io/hostname", "egress-node-1"));
    }

    @Test
    void twoBordersNeverShareANode() {
        Map<String, Object> term = Manifests.<List<Map<String, Object>>>at(
                        podSpec(hostNetwork.border("border-a")),
                        "affinity",
                        "podAntiAffinity",
                        "requiredDuringSchedulingIgnoredDuringExecution")
                .get(0);

        assertThat(term).containsEntry("topologyKey", "kubernetes.io/hostname");
        assertThat(podLabels(hostNetwork.border("border-b")))
                .containsAllEntriesOf(at(term, "labelSelector", "matchLabels"));
    }

    @Test
    void aHostNetworkBorderWithoutAPinFailsTheRender() {
        ChartRendering.Render render =
                ChartRendering.render().example("values-hostnetwork.yaml").set("border.placement.pinBy", "none");

        assertThatThrownBy(render::text)
                .hasMessageContaining("border.instances[border-a]: a hostNetwork Border needs a node pin");
    }

    @Test
    void aBorderPinnedByNodeNameWithoutOneFailsTheRender() {
        ChartRendering.Render render = ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .set("border.placement.pinBy", "nodeName")
                .set("border.instances[0].nodeName", "egress-node-1");

        assertThatThrownBy(render::text)
                .hasMessageContaining(
                        "border.instances[border-b]: nodeName is required with border.placement.pinBy=nodeName");
    }

    @Test
    void twoBordersOnOneNodeFailTheRender() {
        ChartRendering.Render render = ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .set("border.placement.pinBy", "nodeName")
                .set("border.instances[0].nodeName", "egress-node-1")
                .set("border.instances[1].nodeName", "egress-node-1");

        assertThatThrownBy(render::text).hasMessageContaining("border-a and border-b are both on node egress-node-1");
    }

    @Test
    void aNodeNameThatWouldBeIgnoredFailsTheRender() {
        ChartRendering.Render render = ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .set("border.instances[0].nodeName", "egress-node-1");

        assertThatThrownBy(render::text)
                .hasMessageContaining("nodeName egress-node-1 is set but border.placement.pinBy is nodeLabel");
    }

    @Test
    void podNetworkBordersMayRunOnAnyNode() {
        Manifests multus = ChartRendering.render().example("values-multus.yaml").manifests();

        assertThat(podSpec(multus.border("border-a")))
                .doesNotContainKey("nodeSelector")
                .doesNotContainKey("hostNetwork");
    }

    @Test
    void aBorderShutdownThatCannotFinishItsDrainFailsTheRender() {
        assertThatThrownBy(ChartRendering.render()
                        .example("values-hostnetwork.yaml")
                        .set("border.drainTimeout", "50s")::text)
                .hasMessageContaining("border.shutdownPhaseTimeout 45s must be above border.drainTimeout 50s");
        assertThatThrownBy(ChartRendering.render()
                        .example("values-hostnetwork.yaml")
                        .set("border.terminationGracePeriodSeconds", 45)::text)
                .hasMessageContaining(
                        "border.terminationGracePeriodSeconds 45 must be above border.shutdownPhaseTimeout 45s");
    }

    @Test
    void eachBorderRemembersItsLastDecisionRecordOnItsNodeWhenAHostPathIsGiven() {
        Manifests remembering = ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .set("border.decisionsState.hostPath", "/var/lib/egress-platform/")
                .manifests();

        for (String id : List.of("border-a", "border-b")) {
            Map<String, Object> border = remembering.border(id);
            assertThat(Manifests.env(border))
                    .containsEntry("EGRESS_DECISIONS_STATEFILE", "/var/lib/egress/decisions/state.json");
            assertThat(Manifests.mounts(border)).containsEntry("/var/lib/egress/decisions", "decisions-state");
            assertThat(Manifests.<Map<String, Object>>at(Manifests.volume(border, "decisions-state"), "hostPath"))
                    .containsExactly(
                            entry("path", "/var/lib/egress-platform/" + ChartRendering.PREFIX + "-" + id),
                            entry("type", "Directory"));
        }
        assertThat(Manifests.env(hostNetwork.border("border-a"))).doesNotContainKey("EGRESS_DECISIONS_STATEFILE");
    }
}
