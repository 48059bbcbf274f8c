package dev.egress.helm;

import static dev.egress.helm.Manifests.at;
import static dev.egress.helm.Manifests.containers;
import static dev.egress.helm.Manifests.podSpec;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Pod Security Admission: App meets the "restricted" level, hostNetwork Borders need "privileged", so the
 * chart supports a Borders-only release in a namespace of its own, and ships that namespace's manifest.
 */
class PodSecurityTest {

    @Test
    void appPodsMeetTheRestrictedLevel() {
        Map<String, Object> app = ChartRendering.render().manifests().app();
        Map<String, Object> pod = podSpec(app);
        Map<String, Object> container = containers(app).get(0);

        assertThat(pod).doesNotContainKeys("hostNetwork", "hostPID", "hostIPC");
        assertThat(Manifests.<Boolean>at(pod, "securityContext", "runAsNonRoot"))
                .isTrue();
        assertThat(Manifests.<String>at(pod, "securityContext", "seccompProfile", "type"))
                .isEqualTo("RuntimeDefault");
        assertThat(Manifests.<Boolean>at(container, "securityContext", "allowPrivilegeEscalation"))
                .isFalse();
        assertThat(Manifests.<List<String>>at(container, "securityContext", "capabilities", "drop"))
                .containsExactly("ALL");
        assertThat(Manifests.<List<Map<String, Object>>>at(pod, "volumes"))
                .allSatisfy(v -> assertThat(v)
                        .containsAnyOf(
                                Map.entry("name", "tmp"),
                                Map.entry("name", "tenants"),
                                Map.entry("name", "tokens"),
                                Map.entry("name", "trust"))
                        .doesNotContainKey("hostPath"));
    }

    @Test
    void theBordersNamespaceExampleEnforcesThePrivilegedLevelTheirHostNetworkNeeds() {
        Map<String, Object> namespace = ChartRendering.yaml()
                .load(ChartRendering.read(ChartRendering.EXAMPLES.resolve("namespace-borders.yaml")));
        Map<String, Object> border = ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .manifests()
                .border("border-a");

        assertThat(podSpec(border)).containsEntry("hostNetwork", true);
        assertThat(Manifests.<Map<String, String>>at(namespace, "metadata", "labels"))
                .containsEntry("pod-security.kubernetes.io/enforce", "privileged");
    }

    @Test
    void aBordersOnlyReleaseRendersNoAppObjects() {
        Manifests borders = ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .set("app.enabled", false)
                .set("metrics.serviceMonitor.enabled", true)
                .manifests();

        assertThat(borders.ofKind("Deployment")).isEmpty();
        assertThat(borders.ofKind("StatefulSet")).hasSize(2);
        assertThat(borders.names()).noneMatch(n -> n.contains("-app"));
        assertThat(borders.ofKind("ConfigMap")).isEmpty();
        assertThat(borders.objects()).allSatisfy(KubernetesApiSchema::validate);
    }

    @Test
    void aBordersOnlyReleaseAdmitsAppFromItsOwnNamespaceOnTheBorderPort() {
        Manifests borders = ChartRendering.render()
                .example("values-multus.yaml")
                .set("app.enabled", false)
                .set(
                        "border.networkPolicy.appFrom[0].namespaceSelector.matchLabels.kubernetes\\.io/metadata\\.name",
                        "egress-app")
                .set("border.networkPolicy.appFrom[0].podSelector.matchLabels.app\\.kubernetes\\.io/component", "app")
                .manifests();
        Map<String, Object> policy = borders.named("NetworkPolicy", ChartRendering.PREFIX + "-border");
        List<Map<String, Object>> rules = at(policy, "spec", "ingress");

        assertThat(Manifests.<List<Map<String, Object>>>at(rules.get(0), "from"))
                .singleElement()
                .satisfies(peer -> {
                    assertThat(Manifests.<Map<String, String>>at(peer, "namespaceSelector", "matchLabels"))
                            .containsEntry("kubernetes.io/metadata.name", "egress-app");
                    assertThat(Manifests.<Map<String, String>>at(peer, "podSelector", "matchLabels"))
                            .containsEntry("app.kubernetes.io/component", "app");
                });
        KubernetesApiSchema.validate(policy);
    }
}
