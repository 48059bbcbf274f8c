package dev.egress.helm;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.egress.helm.Manifests.env;
import static dev.egress.helm.Manifests.mounts;
import static dev.egress.helm.Manifests.volume;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Trust-chain material (each pod's certificate and key, the CAs of Borders and of App) reaches the services
 * as files, from Secrets or from cert-manager Certificates, so renewals change files rather than pods.
 */
class TrustChainTest {

    private static final String PREFIX = ChartRendering.PREFIX;

    @Test
    void withoutTheTrustChainNothingIsMountedOrRequested() {
        Manifests manifests = ChartRendering.render().example("values-hostnetwork.yaml").manifests();

        assertThat(manifests.ofKind("Certificate")).isEmpty();
        for (Map<String, Object> workload : manifests.workloads()) {
            assertThat(env(workload)).doesNotContainKeys("EGRESS_TRUST_CERTIFICATE", "EGRESS_TRUST_PRIVATEKEY");
            assertThat(mounts(workload)).doesNotContainKey("/etc/egress/trust");
        }
    }

    @Test
    void everyPodGetsItsOwnCertificateAndBothCasAsFilesNamedToTheService() {
        Manifests manifests = ChartRendering.render().example("values-hostnetwork.yaml").set("tls.enabled", true)
                .set("tls.borderCa.secretName", "egress-border-ca").manifests();

        for (Map<String, Object> workload : manifests.workloads()) {
            assertThat(env(workload))
                    .containsEntry("EGRESS_TRUST_CERTIFICATE", "/etc/egress/trust/certificate.pem")
                    .containsEntry("EGRESS_TRUST_PRIVATEKEY", "/etc/egress/trust/private-key.pem")
                    .containsEntry("EGRESS_TRUST_BORDERCA", "/etc/egress/trust/border-ca.pem")
                    .containsEntry("EGRESS_TRUST_APPCA", "/etc/egress/trust/app-ca.pem");
            assertThat(mounts(workload)).containsEntry("/etc/egress/trust", "trust");
        }
        assertThat(sources(manifests.app())).containsExactly(
                Map.entry(PREFIX + "-app-tls", List.of("tls.crt", "tls.key")),
                Map.entry("egress-border-ca", List.of("ca.crt")),
                Map.entry(PREFIX + "-app-tls", List.of("ca.crt")));
        assertThat(sources(manifests.border("border-b")).get(0))
                .isEqualTo(Map.entry(PREFIX + "-border-border-b-tls", List.of("tls.crt", "tls.key")));
        assertThat(manifests.objects()).allSatisfy(KubernetesApiSchema::validate);
    }

    @Test
    void aBorderMayNameItsOwnCertificateSecret() {
        Manifests manifests = ChartRendering.render().example("values-hostnetwork.yaml").set("tls.enabled", true)
                .set("border.instances[0].tlsSecretName", "border-a-identity").manifests();

        assertThat(sources(manifests.border("border-a")).get(0).getKey()).isEqualTo("border-a-identity");
    }

    @Test
    void certManagerIssuesOneCertificatePerPodIdentityIntoTheMountedSecrets() {
        Manifests manifests = ChartRendering.render().example("values-hostnetwork.yaml").set("tls.enabled", true)
                .set("tls.certManager.issuerRef.name", "egress-ca").set("tls.certManager.issuerRef.kind", "ClusterIssuer")
                .manifests();
        List<Map<String, Object>> certificates = manifests.ofKind("Certificate").toList();

        assertThat(certificates).extracting(c -> Manifests.<String>at(c, "spec", "secretName"))
                .containsExactly(PREFIX + "-app-tls", PREFIX + "-border-border-a-tls", PREFIX + "-border-border-b-tls");
        assertThat(certificates).extracting(c -> Manifests.<String>at(c, "spec", "commonName"))
                .containsExactly("app", "border-a", "border-b");
        assertThat(certificates).allSatisfy(c -> {
            assertThat(Manifests.<Map<String, String>>at(c, "spec", "issuerRef"))
                    .containsEntry("name", "egress-ca").containsEntry("kind", "ClusterIssuer");
            assertThat(Manifests.<List<String>>at(c, "spec", "usages")).contains("server auth", "client auth");
        });
        assertThat(sources(manifests.border("border-a")).get(0).getKey()).isEqualTo(PREFIX + "-border-border-a-tls");
    }

    private static List<Map.Entry<String, List<String>>> sources(Map<String, Object> workload) {
        List<Map<String, Object>> projected = Manifests.at(volume(workload, "trust"), "projected", "sources");
        return projected.stream().map(s -> Map.entry(Manifests.<String>at(s, "secret", "name"),
                Manifests.<List<Map<String, String>>>at(s, "secret", "items").stream().map(i -> i.get("key")).toList()))
                .toList();
    }
}
