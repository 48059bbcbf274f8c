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
        // The API and the forward proxy (app.proxy.enabled, on by default); never the management port.
        assertThat(Manifests.<List<Map<String, Object>>>at(api, "spec", "ports"))
                .extracting(p -> p.get("name"), p -> p.get("port"))
                .containsExactly(tuple("http", 8080), tuple("proxy", 3128));
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
}
