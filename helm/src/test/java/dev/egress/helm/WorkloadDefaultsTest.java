package dev.egress.helm;

import static dev.egress.helm.Manifests.at;
import static dev.egress.helm.Manifests.containers;
import static dev.egress.helm.Manifests.podSpec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Day-two defaults of the workloads: Borders in Guaranteed QoS, no service links, an App PDB that never
 * blocks a drain, App spread across zones and optionally autoscaled, StatefulSet names whose pods can
 * exist, and NetworkPolicies for App and for the Borders' egress.
 */
class WorkloadDefaultsTest {

    private static final String PREFIX = ChartRendering.PREFIX;

    private final Manifests rendered =
            ChartRendering.render().example("values-multus.yaml").manifests();

    @Test
    void bordersRequestWhatTheyAreLimitedToSoTheirPodsAreGuaranteed() {
        for (Map<String, Object> border : rendered.ofKind("StatefulSet").toList()) {
            Map<String, Object> resources = at(containers(border).get(0), "resources");
            Map<String, Object> requests = at(resources, "requests");
            Map<String, Object> limits = at(resources, "limits");

            assertThat(limits).containsOnlyKeys("cpu", "memory");
            assertThat(requests).isEqualTo(limits);
        }
    }

    @Test
    void noPodGetsServiceLinkEnvironmentVariables() {
        assertThat(rendered.workloads())
                .isNotEmpty()
                .allSatisfy(w -> assertThat(podSpec(w)).containsEntry("enableServiceLinks", false));
    }

    @Test
    void theAppBudgetIsAMaxUnavailableCountAndAppSpreadsAcrossZones() {
        Map<String, Object> pdb = rendered.named("PodDisruptionBudget", PREFIX + "-app");
        List<Map<String, Object>> spread = at(podSpec(rendered.app()), "topologySpreadConstraints");

        assertThat(Manifests.<Map<String, Object>>at(pdb, "spec"))
                .containsEntry("maxUnavailable", 1)
                .doesNotContainKey("minAvailable");
        assertThat(spread)
                .singleElement()
                .satisfies(c -> assertThat(c)
                        .containsEntry("topologyKey", "topology.kubernetes.io/zone")
                        .containsEntry("whenUnsatisfiable", "ScheduleAnyway"));
        assertThat(Manifests.podLabels(rendered.app()))
                .containsAllEntriesOf(at(spread.get(0), "labelSelector", "matchLabels"));
    }

    @Test
    void anAutoscaledAppHasAnHpaOnItsDeploymentAndNoFixedReplicaCount() {
        Manifests scaled = ChartRendering.render()
                .set("app.autoscaling.enabled", true)
                .set("app.autoscaling.maxReplicas", 5)
                .manifests();
        Map<String, Object> hpa = scaled.named("HorizontalPodAutoscaler", PREFIX + "-app");

        assertThat(Manifests.<Map<String, Object>>at(hpa, "spec"))
                .containsEntry("minReplicas", 2)
                .containsEntry("maxReplicas", 5);
        assertThat(Manifests.<String>at(hpa, "spec", "scaleTargetRef", "name")).isEqualTo(PREFIX + "-app");
        assertThat(Manifests.<Map<String, Object>>at(scaled.app(), "spec")).doesNotContainKey("replicas");
        assertThat(scaled.objects()).allSatisfy(KubernetesApiSchema::validate);
        assertThat(rendered.ofKind("HorizontalPodAutoscaler"))
                .as("off by default")
                .isEmpty();
        assertThatThrownBy(ChartRendering.render()
                        .set("app.autoscaling.enabled", true)
                        .set("app.autoscaling.minReplicas", 7)::text)
                .hasMessageContaining("minReplicas 7 is above app.autoscaling.maxReplicas 6");
    }

    @Test
    void aStatefulSetNameOver52CharactersFailsTheRenderAnd52Renders() {
        // PREFIX-border- is 30 characters: a 22-character borderId makes 52.
        String fits = "b".repeat(22);

        assertThatCode(
                        ChartRendering.render().example("values-multus.yaml").set("border.instances[0].borderId", fits)
                                ::text)
                .doesNotThrowAnyException();
        assertThatThrownBy(ChartRendering.render()
                        .example("values-multus.yaml")
                        .set("border.instances[0].borderId", fits + "b")::text)
                .hasMessageContaining("StatefulSet name " + PREFIX + "-border-" + fits + "b is 53 characters")
                .hasMessageContaining("at most 52");
    }

    @Test
    void appTakesTrafficOnlyOnItsApiAndManagementPorts() {
        Map<String, Object> policy = ChartRendering.render()
                .set("app.networkPolicy.apiFrom[0].namespaceSelector.matchLabels.team", "callers")
                .manifests()
                .named("NetworkPolicy", PREFIX + "-app");
        List<Map<String, Object>> rules = at(policy, "spec", "ingress");

        assertThat(Manifests.<List<String>>at(policy, "spec", "policyTypes")).containsExactly("Ingress");
        assertThat(rules)
                .extracting(r -> Manifests.<List<Map<String, Object>>>at(r, "ports")
                        .get(0)
                        .get("port"))
                .containsExactly(8080, 9090);
        assertThat(Manifests.<List<Map<String, Object>>>at(rules.get(0), "from"))
                .singleElement()
                .satisfies(f -> assertThat(Manifests.<Map<String, String>>at(f, "namespaceSelector", "matchLabels"))
                        .containsEntry("team", "callers"));
        assertThat(rules.get(1)).doesNotContainKey("from");
    }

    @Test
    void bordersMayReachDnsTheRegistryAndAnythingOutsideTheClusterRangesAndMetadata() {
        Map<String, Object> policy = ChartRendering.render()
                .example("values-multus.yaml")
                .set("border.networkPolicy.egress.clusterCidrs[0]", "10.0.0.0/8")
                .set("border.networkPolicy.egress.clusterCidrs[1]", "fd00:10::/64")
                .manifests()
                .named("NetworkPolicy", PREFIX + "-border");
        List<Map<String, Object>> egress = at(policy, "spec", "egress");

        assertThat(Manifests.<List<Map<String, Object>>>at(egress.get(0), "ports"))
                .extracting(p -> p.get("port"))
                .containsExactly(53, 53);
        assertThat(Manifests.<List<Map<String, Object>>>at(egress.get(1), "ports")
                        .get(0))
                .as("the registry's port, from registry.connectionString")
                .containsEntry("port", 2135);
        List<Map<String, Object>> blocks = at(egress.get(2), "to");
        assertThat(Manifests.<Map<String, Object>>at(blocks.get(0), "ipBlock"))
                .containsEntry("cidr", "0.0.0.0/0")
                .containsEntry("except", List.of("10.0.0.0/8", "169.254.0.0/16"));
        assertThat(Manifests.<Map<String, Object>>at(blocks.get(1), "ipBlock"))
                .containsEntry("cidr", "::/0")
                .containsEntry("except", List.of("fd00:10::/64", "fd00:ec2::254/128"));
        assertThat(rendered.objects()).allSatisfy(KubernetesApiSchema::validate);
    }
}
