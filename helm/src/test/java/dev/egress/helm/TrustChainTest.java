package dev.egress.helm;

import static dev.egress.helm.Manifests.env;
import static dev.egress.helm.Manifests.mounts;
import static dev.egress.helm.Manifests.volume;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.marcnuri.helm.Helm;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Trust-chain material (each pod's certificate and key, the CAs of Borders and of App) reaches the services
 * as files, from Secrets or from cert-manager Certificates, so renewals change files rather than pods.
 */
class TrustChainTest {

    private static final String PREFIX = ChartRendering.PREFIX;

    @Test
    void theSecureTrustChainIsTheDefault() {
        assertThat(ChartRendering.yaml()
                        .<Map<String, Map<String, Object>>>load(
                                ChartRendering.read(ChartRendering.CHART.resolve("values.yaml")))
                        .get("tls"))
                .containsEntry("enabled", true)
                .containsEntry("trustDomain", "egress.local");
    }

    @Test
    void withTlsAndNeitherAnIssuerNorExistingSecretsTheRenderFailsSayingWhatToSet() {
        // The example names an issuer (it must render alone): take it away.
        ChartRendering.Render render = ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .set("tls.existingSecrets", false)
                .set("tls.certManager.issuerRef.name", "");

        assertThatThrownBy(render::text)
                .hasMessageContaining("tls.certManager.issuerRef.name")
                .hasMessageContaining("tls.existingSecrets=true")
                .hasMessageContaining("spiffe://egress.local/border/<borderId>");
        assertThatCode(render.set("tls.certManager.issuerRef.name", "egress-ca")::text)
                .doesNotThrowAnyException();
    }

    @Test
    void withoutTheTrustChainThePodsRunExplicitlyInsecureLocalAndNothingIsMountedOrRequested() {
        Manifests manifests = ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .set("tls.enabled", false)
                .set("tls.existingSecrets", false)
                .manifests();

        assertThat(manifests.ofKind("Certificate")).isEmpty();
        assertThat(manifests.workloads()).hasSize(3);
        for (Map<String, Object> workload : manifests.workloads()) {
            assertThat(env(workload))
                    .containsEntry("EGRESS_SECURITY_INSECURELOCAL", "true")
                    .doesNotContainKeys("EGRESS_TRUST_CERTIFICATE", "EGRESS_TRUST_PRIVATEKEY", "EGRESS_TRUST_DOMAIN");
            assertThat(mounts(workload)).doesNotContainKey("/etc/egress/trust");
        }
        assertThat(env(manifests.border("border-a")))
                .containsEntry("EGRESS_BORDER_ADVERTISEDURL", "http://$(POD_IP):8181");
    }

    @Test
    void withTheTrustChainNoPodRunsInsecureLocalAndBordersAdvertiseHttps() {
        Manifests manifests = ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .set("tls.trustDomain", "egress.example")
                .manifests();

        for (Map<String, Object> workload : manifests.workloads()) {
            assertThat(env(workload))
                    .doesNotContainKey("EGRESS_SECURITY_INSECURELOCAL")
                    .containsEntry("EGRESS_TRUST_DOMAIN", "egress.example");
        }
        assertThat(env(manifests.border("border-a")))
                .containsEntry("EGRESS_BORDER_ADVERTISEDURL", "https://$(POD_IP):8181");
        assertThat(env(manifests.border("border-b")))
                .containsEntry("EGRESS_BORDER_ADVERTISEDURL", "https://$(POD_IP):8181");
    }

    @Test
    void probesUsePlainHttpOnTheManagementPortWhichTheBordersTlsDoesNotCover() {
        Manifests manifests =
                ChartRendering.render().example("values-hostnetwork.yaml").manifests();

        for (Map<String, Object> workload : manifests.workloads()) {
            Map<String, Object> container = Manifests.containers(workload).get(0);
            for (String probe : List.of("startupProbe", "livenessProbe", "readinessProbe")) {
                assertThat(Manifests.<String>at(container, probe, "httpGet", "port"))
                        .isEqualTo("management");
                assertThat(Manifests.<String>at(container, probe, "httpGet", "scheme"))
                        .isEqualTo("HTTP");
            }
        }
    }

    @Test
    void theInstallNotesWarnWhenTheTrustChainIsOff(@TempDir Path work) {
        Path chart = ChartRendering.copyOfChart(work, ChartRendering.resource("test-values.yaml"), null);

        String insecure = new Helm(chart)
                .install()
                .withName(ChartRendering.RELEASE)
                .withNamespace(ChartRendering.NAMESPACE)
                .withKubeVersion(ChartRendering.KUBE_VERSION)
                .set("tls.enabled", false)
                .dryRun()
                .clientOnly()
                .call()
                .getOutput();
        String secure = new Helm(chart)
                .install()
                .withName(ChartRendering.RELEASE)
                .withNamespace(ChartRendering.NAMESPACE)
                .withKubeVersion(ChartRendering.KUBE_VERSION)
                .dryRun()
                .clientOnly()
                .call()
                .getOutput();

        assertThat(insecure)
                .contains("WARNING: tls.enabled=false")
                .contains("UNSIGNED announcements")
                .contains("For experiments only");
        assertThat(secure).doesNotContain("tls.enabled=false").contains("spiffe://egress.local/app/egress");
    }

    @Test
    void everyPodGetsItsOwnCertificateAndBothCasAsFilesNamedToTheService() {
        Manifests manifests = ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .set("tls.enabled", true)
                .set("tls.borderCa.secretName", "egress-border-ca")
                .manifests();

        for (Map<String, Object> workload : manifests.workloads()) {
            assertThat(env(workload))
                    .containsEntry("EGRESS_TRUST_CERTIFICATE", "/etc/egress/trust/certificate.pem")
                    .containsEntry("EGRESS_TRUST_PRIVATEKEY", "/etc/egress/trust/private-key.pem")
                    .containsEntry("EGRESS_TRUST_BORDERCA", "/etc/egress/trust/border-ca.pem")
                    .containsEntry("EGRESS_TRUST_APPCA", "/etc/egress/trust/app-ca.pem");
            assertThat(mounts(workload)).containsEntry("/etc/egress/trust", "trust");
        }
        assertThat(sources(manifests.app()))
                .containsExactly(
                        Map.entry(PREFIX + "-app-tls", List.of("tls.crt", "tls.key")),
                        Map.entry("egress-border-ca", List.of("ca.crt")),
                        Map.entry(PREFIX + "-app-tls", List.of("ca.crt")));
        assertThat(sources(manifests.border("border-b")).get(0))
                .isEqualTo(Map.entry(PREFIX + "-border-border-b-tls", List.of("tls.crt", "tls.key")));
        assertThat(manifests.objects()).allSatisfy(KubernetesApiSchema::validate);
    }

    @Test
    void aBorderMayNameItsOwnCertificateSecret() {
        Manifests manifests = ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .set("tls.enabled", true)
                .set("border.instances[0].tlsSecretName", "border-a-identity")
                .manifests();

        assertThat(sources(manifests.border("border-a")).get(0).getKey()).isEqualTo("border-a-identity");
    }

    @Test
    void certManagerIssuesOneCertificatePerPodIdentityIntoTheMountedSecrets() {
        Manifests manifests = ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .set("tls.enabled", true)
                .set("tls.existingSecrets", false)
                .set("tls.certManager.issuerRef.name", "egress-ca")
                .set("tls.certManager.issuerRef.kind", "ClusterIssuer")
                .manifests();
        List<Map<String, Object>> certificates = manifests.ofKind("Certificate").toList();

        assertThat(certificates)
                .extracting(c -> Manifests.<String>at(c, "spec", "secretName"))
                .containsExactly(PREFIX + "-app-tls", PREFIX + "-border-border-a-tls", PREFIX + "-border-border-b-tls");
        assertThat(certificates)
                .extracting(c -> Manifests.<String>at(c, "spec", "commonName"))
                .containsExactly("app", "border-a", "border-b");
        assertThat(certificates)
                .extracting(c -> Manifests.<List<String>>at(c, "spec", "uris"))
                .containsExactly(
                        List.of("spiffe://egress.local/app/" + ChartRendering.RELEASE),
                        List.of("spiffe://egress.local/border/border-a"),
                        List.of("spiffe://egress.local/border/border-b"));
        assertThat(certificates).allSatisfy(c -> {
            assertThat(Manifests.<Map<String, String>>at(c, "spec", "issuerRef"))
                    .containsEntry("name", "egress-ca")
                    .containsEntry("kind", "ClusterIssuer");
            assertThat(Manifests.<List<String>>at(c, "spec", "usages")).contains("server auth", "client auth");
            assertThat(Manifests.<String>at(c, "spec", "privateKey", "encoding"))
                    .isEqualTo("PKCS8");
        });
        assertThat(sources(manifests.border("border-a")).get(0).getKey()).isEqualTo(PREFIX + "-border-border-a-tls");
    }

    @Test
    void eachBorderCertificateNamesTheIpsTheBorderAnnouncesAndAppsNone() {
        Manifests manifests = ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .set("tls.existingSecrets", false)
                .set("tls.certManager.issuerRef.name", "egress-ca")
                .set("border.instances[1].ips[0]", "10.0.1.12=198.51.100.12")
                .manifests();
        Map<String, List<String>> ipAddresses = new TreeMap<>();
        manifests
                .ofKind("Certificate")
                .forEach(c -> ipAddresses.put(
                        Manifests.<String>at(c, "spec", "commonName"),
                        Manifests.<List<String>>at(c, "spec", "ipAddresses")));

        assertThat(ipAddresses)
                .containsEntry("border-a", List.of("198.51.100.10", "198.51.100.11", "198.51.100.20"))
                // Behind a NAT both the bind and the public address: App checks both.
                .containsEntry("border-b", List.of("10.0.1.12", "198.51.100.12", "198.51.100.13", "198.51.100.21"));
        assertThat(ipAddresses.get("app")).isNull();
    }

    @Test
    void certificatesLiveDaysNotMonthsAndRenewADayEarly() {
        Manifests manifests = ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .set("tls.existingSecrets", false)
                .set("tls.certManager.issuerRef.name", "egress-ca")
                .manifests();

        assertThat(manifests.ofKind("Certificate").toList()).hasSize(3).allSatisfy(c -> {
            assertThat(Manifests.<String>at(c, "spec", "duration")).isEqualTo("72h");
            assertThat(Manifests.<String>at(c, "spec", "renewBefore")).isEqualTo("24h");
        });
    }

    private static List<Map.Entry<String, List<String>>> sources(Map<String, Object> workload) {
        List<Map<String, Object>> projected = Manifests.at(volume(workload, "trust"), "projected", "sources");
        return projected.stream()
                .map(s -> Map.entry(
                        Manifests.<String>at(s, "secret", "name"),
                        Manifests.<List<Map<String, String>>>at(s, "secret", "items").stream()
                                .map(i -> i.get("key"))
                                .toList()))
                .toList();
    }
}
