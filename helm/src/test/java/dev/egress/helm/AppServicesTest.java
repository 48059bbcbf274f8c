package dev.egress.helm;

import static dev.egress.helm.Manifests.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** App's Services: the dispatch API as configured, the management port never exposed with it. */
class AppServicesTest {

    private static final String API = ChartRendering.PREFIX + "-app";
    private static final String MANAGEMENT = ChartRendering.PREFIX + "-app-management";

    @Test
    void serviceAnnotationsAreRenderedAsAnnotationsAndNeverAsLabels() {
        Map<String, Object> service = ChartRendering.render()
                .set("app.service.annotations.service\\.beta\\.kubernetes\\.io/aws-load-balancer-scheme", "internal")
                .set("app.service.annotations.example\\.com/note", "not a valid label value")
                .manifests()
                .named("Service", API);

        assertThat(Manifests.<Map<String, String>>at(service, "metadata", "annotations"))
                .containsEntry("service.beta.kubernetes.io/aws-load-balancer-scheme", "internal")
                .containsEntry("example.com/note", "not a valid label value");
        assertThat(Manifests.<Map<String, String>>at(service, "metadata", "labels"))
                .doesNotContainKeys("service.beta.kubernetes.io/aws-load-balancer-scheme", "example.com/note");
        KubernetesApiSchema.validate(service);
    }

    @Test
    void serviceAnnotationsAreMergedOverTheCommonAnnotations() {
        Map<String, Object> service = ChartRendering.render()
                .set("commonAnnotations.example\\.com/team", "platform")
                .set("commonAnnotations.example\\.com/tier", "common")
                .set("app.service.annotations.example\\.com/tier", "api")
                .manifests()
                .named("Service", API);

        assertThat(Manifests.<Map<String, String>>at(service, "metadata", "annotations"))
                .containsOnly(Map.entry("example.com/team", "platform"), Map.entry("example.com/tier", "api"));
    }

    @Test
    void theManagementPortHasItsOwnClusterIpServiceAndIsNotExposedWithTheApi() {
        Manifests manifests = ChartRendering.render()
                .set("app.service.type", "LoadBalancer")
                .set(
                        "app.service.annotations.service\\.beta\\.kubernetes\\.io/aws-load-balancer-scheme",
                        "internet-facing")
                .manifests();
        Map<String, Object> api = manifests.named("Service", API);
        Map<String, Object> management = manifests.named("Service", MANAGEMENT);

        assertThat(Manifests.<String>at(api, "spec", "type")).isEqualTo("LoadBalancer");
        // The API (the forward proxy is off by default); never the management port.
        assertThat(Manifests.<List<Map<String, Object>>>at(api, "spec", "ports"))
                .extracting(p -> p.get("name"), p -> p.get("port"))
                .containsExactly(tuple("http", 8080));
        assertThat(Manifests.<String>at(management, "spec", "type")).isEqualTo("ClusterIP");
        assertThat(Manifests.<Map<String, String>>at(management, "metadata", "annotations"))
                .isNull();
        assertThat(Manifests.<List<Map<String, Object>>>at(management, "spec", "ports"))
                .singleElement()
                .satisfies(
                        p -> assertThat(p).containsEntry("name", "management").containsEntry("port", 9090));
        assertThat(Manifests.podLabels(manifests.app()))
                .containsAllEntriesOf(at(management, "spec", "selector"))
                .containsAllEntriesOf(at(api, "spec", "selector"));
    }

    @Test
    void theOperatorApiSharesTheApiPortByDefault() {
        Manifests manifests = ChartRendering.render().manifests();

        assertThat(Manifests.env(manifests.app())).doesNotContainKey("EGRESS_OPS_PORT");
        assertThat(manifests.names()).doesNotContain("Service/" + API + "-ops");
    }

    @Test
    void anOperatorPortGetsItsContainerPortClusterIpServiceAndNetworkPolicyRule() {
        Manifests manifests = ChartRendering.render()
                .set("app.containerPorts.ops", 9443)
                .set("app.networkPolicy.opsFrom[0].namespaceSelector.matchLabels.team", "operators")
                .manifests();
        Map<String, Object> app = manifests.app();
        Map<String, Object> ops = manifests.named("Service", API + "-ops");

        assertThat(Manifests.env(app)).containsEntry("EGRESS_OPS_PORT", "9443");
        assertThat(Manifests.<List<Map<String, Object>>>at(
                        Manifests.containers(app).get(0), "ports"))
                .extracting(p -> p.get("name"), p -> p.get("containerPort"))
                .contains(tuple("ops", 9443));
        assertThat(Manifests.<String>at(ops, "spec", "type")).isEqualTo("ClusterIP");
        assertThat(Manifests.<List<Map<String, Object>>>at(ops, "spec", "ports"))
                .extracting(p -> p.get("port"), p -> p.get("targetPort"))
                .containsExactly(tuple(9443, "ops"));
        assertThat(Manifests.<List<Map<String, Object>>>at(manifests.named("Service", API), "spec", "ports"))
                .extracting(p -> p.get("name"))
                .doesNotContain("ops");
        List<Map<String, Object>> rules = at(manifests.named("NetworkPolicy", API), "spec", "ingress");
        assertThat(rules)
                .filteredOn(r -> Manifests.<List<Map<String, Object>>>at(r, "ports")
                        .get(0)
                        .get("port")
                        .equals(9443))
                .singleElement()
                .satisfies(r -> assertThat(r.toString()).contains("team=operators"));
        KubernetesApiSchema.validate(ops);
        KubernetesApiSchema.validate(manifests.named("NetworkPolicy", API));
    }
}
