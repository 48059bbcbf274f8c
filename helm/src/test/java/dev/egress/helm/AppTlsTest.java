package dev.egress.helm;

import static dev.egress.helm.Manifests.at;
import static dev.egress.helm.Manifests.containers;
import static dev.egress.helm.Manifests.env;
import static dev.egress.helm.Manifests.mounts;
import static dev.egress.helm.Manifests.volume;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code app.tls}: App's API, operator page and actuator port served over TLS from a Boot SSL bundle whose PEM
 * files come from a mounted {@code kubernetes.io/tls} Secret; the probes and App's ServiceMonitor follow.
 */
class AppTlsTest {

    private static final List<String> PROBES = List.of("startupProbe", "livenessProbe", "readinessProbe");

    @Test
    void appServesPlainHttpByDefault() {
        Map<String, Object> app = ChartRendering.render().manifests().app();

        assertThat(env(app)).doesNotContainKey("SERVER_SSL_BUNDLE");
        assertThat(mounts(app)).doesNotContainKey("/etc/egress/server-tls");
        for (String probe : PROBES) {
            assertThat(Manifests.<String>at(containers(app).get(0), probe, "httpGet", "scheme"))
                    .as(probe)
                    .isEqualTo("HTTP");
        }
    }

    @Test
    void tlsMountsTheSecretPointsTheBundleAtItAndSwitchesTheProbesToHttps() {
        Map<String, Object> app = ChartRendering.render()
                .set("app.tls.enabled", true)
                .set("app.tls.secretName", "app-server-tls")
                .manifests()
                .app();

        assertThat(env(app))
                .containsEntry("SERVER_SSL_BUNDLE", "server")
                .containsEntry(
                        "SPRING_SSL_BUNDLE_PEM_SERVER_KEYSTORE_CERTIFICATE", "file:/etc/egress/server-tls/tls.crt")
                .containsEntry(
                        "SPRING_SSL_BUNDLE_PEM_SERVER_KEYSTORE_PRIVATEKEY", "file:/etc/egress/server-tls/tls.key")
                .containsEntry("SPRING_SSL_BUNDLE_PEM_SERVER_RELOADONUPDATE", "true");
        assertThat(mounts(app)).containsEntry("/etc/egress/server-tls", "server-tls");
        assertThat(Manifests.<String>at(volume(app, "server-tls"), "secret", "secretName"))
                .isEqualTo("app-server-tls");
        for (String probe : PROBES) {
            assertThat(Manifests.<String>at(containers(app).get(0), probe, "httpGet", "scheme"))
                    .as(probe)
                    .isEqualTo("HTTPS");
        }
    }

    @Test
    void bordersKeepTheirProbesWhenAppServesTls() {
        Manifests manifests = ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .set("app.tls.enabled", true)
                .set("app.tls.secretName", "app-server-tls")
                .manifests();

        manifests.ofKind("StatefulSet").forEach(border -> {
            for (String probe : PROBES) {
                assertThat(Manifests.<String>at(containers(border).get(0), probe, "httpGet", "scheme"))
                        .as(probe)
                        .isEqualTo("HTTP");
            }
        });
        assertThat(manifests.ofKind("StatefulSet")).isNotEmpty();
    }

    @Test
    void appsServiceMonitorScrapesOverHttpsVerifyingTheCertificate() {
        Manifests manifests = ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .set("metrics.serviceMonitor.enabled", true)
                .set("app.tls.enabled", true)
                .set("app.tls.secretName", "app-server-tls")
                .manifests();

        Map<String, Object> endpoint = endpoint(manifests, "app");
        assertThat(endpoint).containsEntry("scheme", "https").doesNotContainKey("insecureSkipVerify");
        assertThat(Manifests.<String>at(endpoint, "tlsConfig", "ca", "secret", "name"))
                .isEqualTo("app-server-tls");
        assertThat(Manifests.<String>at(endpoint, "tlsConfig", "serverName"))
                .isEqualTo(ChartRendering.PREFIX + "-app." + ChartRendering.NAMESPACE + ".svc");
        assertThat(endpoint(manifests, "border")).doesNotContainKey("scheme");
    }

    @Test
    void tlsWithoutASecretFailsTheRender() {
        assertThatThrownBy(ChartRendering.render().set("app.tls.enabled", true)::text)
                .hasMessageContaining("app.tls.secretName is required when app.tls.enabled is true");
    }

    private static Map<String, Object> endpoint(Manifests manifests, String component) {
        Map<String, Object> monitor = manifests.named("ServiceMonitor", ChartRendering.PREFIX + "-" + component);
        List<Map<String, Object>> endpoints = at(monitor, "spec", "endpoints");
        return endpoints.get(0);
    }
}
