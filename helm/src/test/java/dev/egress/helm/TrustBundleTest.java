package dev.egress.helm;

import static dev.egress.helm.Manifests.at;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A CA rotation needs both CAs trusted while certificates move from the old to the new one: with
 * {@code tls.caBundle} every pod takes its peer CAs from one ConfigMap (a trust-manager Bundle, or one of
 * yours) that can hold both, instead of the single {@code ca.crt} in its own certificate Secret.
 */
class TrustBundleTest {

    private static List<Map<String, Object>> trustSources(Map<String, Object> workload) {
        return at(Manifests.volume(workload, "trust"), "projected", "sources");
    }

    @Test
    void withABundleBothPeerCasComeFromItsConfigMapAndTheKeyStaysInTheOwnSecret() {
        Manifests manifests = ChartRendering.render()
                .example("values-multus.yaml")
                .set("tls.caBundle.configMapName", "egress-ca-bundle")
                .set("tls.caBundle.key", "bundle.pem")
                .manifests();

        for (Map<String, Object> workload : manifests.workloads()) {
            List<Map<String, Object>> sources = trustSources(workload);
            assertThat(sources).hasSize(3);
            assertThat(sources.get(0)).containsKey("secret");
            assertThat(sources.subList(1, 3))
                    .allSatisfy(s -> assertThat(Manifests.<String>at(s, "configMap", "name"))
                            .isEqualTo("egress-ca-bundle"))
                    .extracting(s -> Manifests.<List<Map<String, String>>>at(s, "configMap", "items")
                            .get(0))
                    .containsExactly(
                            Map.of("key", "bundle.pem", "path", "border-ca.pem"),
                            Map.of("key", "bundle.pem", "path", "app-ca.pem"));
        }
        assertThat(manifests.objects()).allSatisfy(KubernetesApiSchema::validate);
    }

    @Test
    void anExplicitCaSecretStillWinsOverTheBundleAndWithoutABundleEachPodTrustsItsOwnCaCrt() {
        Manifests explicit = ChartRendering.render()
                .set("tls.caBundle.configMapName", "egress-ca-bundle")
                .set("tls.borderCa.secretName", "border-ca")
                .manifests();
        List<Map<String, Object>> sources = trustSources(explicit.app());
        assertThat(Manifests.<String>at(sources.get(1), "secret", "name")).isEqualTo("border-ca");
        assertThat(Manifests.<String>at(sources.get(2), "configMap", "name")).isEqualTo("egress-ca-bundle");

        List<Map<String, Object>> plain =
                trustSources(ChartRendering.render().manifests().app());
        assertThat(plain)
                .allSatisfy(s -> assertThat(Manifests.<String>at(s, "secret", "name"))
                        .isEqualTo(ChartRendering.PREFIX + "-app-tls"));
    }
}
