package dev.egress.helm;

import static dev.egress.helm.ChartRendering.PREFIX;
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
 * {@code app.proxy}: App's forward proxy on a named {@code proxy} port of its container and Service, its
 * settings passed as {@code egress.proxy.*}, admitted by App's NetworkPolicy like the API, and optionally
 * served over TLS with App's certificate ({@code app.tls.secretName}).
 */
class AppProxyTest {

    /** The proxy turned on: it is off by default, so tokens never cross a VPC in clear unless asked. */
    private static ChartRendering.Render proxy() {
        return ChartRendering.render().set("app.proxy.enabled", true);
    }

    @Test
    void theProxyIsOffByDefault() {
        Manifests manifests = ChartRendering.render().manifests();
        Map<String, Object> app = manifests.app();

        assertThat(Manifests.<List<Map<String, Object>>>at(containers(app).get(0), "ports"))
                .extracting(p -> p.get("name"))
                .doesNotContain("proxy");
        assertThat(Manifests.<List<Map<String, Object>>>at(
                        manifests.named("Service", PREFIX + "-app"), "spec", "ports"))
                .extracting(p -> p.get("name"))
                .doesNotContain("proxy");
        assertThat(env(app)).containsEntry("EGRESS_PROXY_ENABLED", "false");
    }

    @Test
    void anEnabledProxyListensOnANamedPortOfTheContainerAndTheService() {
        Manifests manifests = proxy().manifests();
        Map<String, Object> app = manifests.app();

        assertThat(Manifests.<List<Map<String, Object>>>at(containers(app).get(0), "ports"))
                .filteredOn(p -> "proxy".equals(p.get("name")))
                .singleElement()
                .satisfies(
                        p -> assertThat(p).containsEntry("containerPort", 3128).containsEntry("protocol", "TCP"));
        assertThat(Manifests.<List<Map<String, Object>>>at(
                        manifests.named("Service", PREFIX + "-app"), "spec", "ports"))
                .filteredOn(p -> "proxy".equals(p.get("name")))
                .singleElement()
                .satisfies(p -> assertThat(p).containsEntry("port", 3128).containsEntry("targetPort", "proxy"));
        assertThat(env(app))
                .containsEntry("EGRESS_PROXY_ENABLED", "true")
                .containsEntry("EGRESS_PROXY_PORT", "3128")
                .containsEntry("EGRESS_PROXY_CONNECTTIMEOUT", "10s")
                .containsEntry("EGRESS_PROXY_IDLETIMEOUT", "5m")
                .containsEntry("EGRESS_PROXY_MAXLIFETIME", "1h")
                .containsEntry("EGRESS_PROXY_MAXTUNNELSPERTENANT", "512")
                .containsEntry("EGRESS_PROXY_MAXTUNNELSPERIP", "1024")
                .containsEntry("EGRESS_PROXY_LIMITS_HEADCONNECTIONS", "4096")
                .containsEntry("EGRESS_PROXY_LIMITS_HEADCONNECTIONSPERSOURCE", "64")
                .containsEntry("EGRESS_PROXY_LIMITS_BUFFERMEMORY", "64MB")
                .containsEntry("EGRESS_PROXY_LIMITS_BUFFERMEMORYPERTENANT", "16MB")
                .containsEntry("EGRESS_PROXY_LIMITS_SENDERSTALLTIMEOUT", "30s")
                .doesNotContainKeys(
                        "EGRESS_PROXY_ALLOWEDPORTS", "EGRESS_PROXY_SSLBUNDLE", "EGRESS_PROXY_UNAUTHENTICATEDSOURCES");
        KubernetesApiSchema.validate(manifests.named("Service", PREFIX + "-app"));
    }

    @Test
    void everyProxyValueReachesItsProperty() {
        Map<String, Object> app = proxy().set("app.proxy.port", 8888)
                .set("app.proxy.connectTimeout", "3s")
                .set("app.proxy.idleTimeout", "90s")
                .set("app.proxy.maxLifetime", "30m")
                .set("app.proxy.maxTunnelsPerTenant", 64)
                .set("app.proxy.maxTunnelsPerIp", 128)
                .set("app.proxy.allowedPorts[0]", 443)
                .set("app.proxy.allowedPorts[1]", 8443)
                .set("app.proxy.allowedPorts[2]", "9000-9099")
                .set("app.proxy.limits.headConnections", 512)
                .set("app.proxy.limits.headConnectionsPerSource", 8)
                .set("app.proxy.limits.bufferMemory", "32MB")
                .set("app.proxy.limits.bufferMemoryPerTenant", "4MB")
                .set("app.proxy.limits.senderStallTimeout", "10s")
                .manifests()
                .app();

        assertThat(env(app))
                .containsEntry("EGRESS_PROXY_PORT", "8888")
                .containsEntry("EGRESS_PROXY_CONNECTTIMEOUT", "3s")
                .containsEntry("EGRESS_PROXY_IDLETIMEOUT", "90s")
                .containsEntry("EGRESS_PROXY_MAXLIFETIME", "30m")
                .containsEntry("EGRESS_PROXY_MAXTUNNELSPERTENANT", "64")
                .containsEntry("EGRESS_PROXY_MAXTUNNELSPERIP", "128")
                .containsEntry("EGRESS_PROXY_ALLOWEDPORTS", "443,8443,9000-9099")
                .containsEntry("EGRESS_PROXY_LIMITS_HEADCONNECTIONS", "512")
                .containsEntry("EGRESS_PROXY_LIMITS_HEADCONNECTIONSPERSOURCE", "8")
                .containsEntry("EGRESS_PROXY_LIMITS_BUFFERMEMORY", "32MB")
                .containsEntry("EGRESS_PROXY_LIMITS_BUFFERMEMORYPERTENANT", "4MB")
                .containsEntry("EGRESS_PROXY_LIMITS_SENDERSTALLTIMEOUT", "10s");
        assertThat(Manifests.<List<Map<String, Object>>>at(containers(app).get(0), "ports"))
                .filteredOn(p -> "proxy".equals(p.get("name")))
                .extracting(p -> p.get("containerPort"))
                .containsExactly(8888);
    }

    @Test
    void unauthenticatedSourcesReachTheirPropertyOnlyWhenListed() {
        Map<String, Object> app = proxy().set("app.proxy.unauthenticatedSources[0]", "10.42.7.0/24")
                .set("app.proxy.unauthenticatedSources[1]", "fd00::/8")
                .manifests()
                .app();

        assertThat(env(app)).containsEntry("EGRESS_PROXY_UNAUTHENTICATEDSOURCES", "10.42.7.0/24,fd00::/8");
    }

    @Test
    void aDisabledProxyHasNoPortAnywhereAndTellsAppSo() {
        Manifests manifests = ChartRendering.render()
                .set("app.proxy.enabled", false)
                .set("app.proxy.tls.enabled", true)
                .manifests();
        Map<String, Object> app = manifests.app();

        assertThat(Manifests.<List<Map<String, Object>>>at(containers(app).get(0), "ports"))
                .extracting(p -> p.get("name"))
                .containsExactly("http", "management");
        assertThat(Manifests.<List<Map<String, Object>>>at(
                        manifests.named("Service", PREFIX + "-app"), "spec", "ports"))
                .extracting(p -> p.get("name"))
                .containsExactly("http");
        assertThat(env(app)).containsEntry("EGRESS_PROXY_ENABLED", "false").doesNotContainKey("EGRESS_PROXY_PORT");
        assertThat(mounts(app)).doesNotContainKey("/etc/egress/server-tls");
        assertThat(ports(rules(manifests))).containsExactly(List.of(8080), List.of(9090));
    }

    @Test
    void theNetworkPolicyAdmitsTheProxyFromTheApiPeersByDefault() {
        Manifests manifests = proxy().set("app.networkPolicy.apiFrom[0].namespaceSelector.matchLabels.team", "callers")
                .manifests();
        List<Map<String, Object>> rules = rules(manifests);

        assertThat(ports(rules)).containsExactly(List.of(8080, 3128), List.of(9090));
        assertThat(Manifests.<List<Map<String, Object>>>at(rules.get(0), "from"))
                .singleElement()
                .satisfies(f -> assertThat(Manifests.<Map<String, String>>at(f, "namespaceSelector", "matchLabels"))
                        .containsEntry("team", "callers"));
        KubernetesApiSchema.validate(manifests.named("NetworkPolicy", PREFIX + "-app"));
    }

    @Test
    void proxyFromGivesTheProxyPortARuleOfItsOwn() {
        Manifests manifests = proxy().set("app.networkPolicy.apiFrom[0].namespaceSelector.matchLabels.team", "callers")
                .set("app.networkPolicy.proxyFrom[0].podSelector.matchLabels.app", "svix-server")
                .set("app.proxy.port", 3129)
                .manifests();
        List<Map<String, Object>> rules = rules(manifests);

        assertThat(ports(rules)).containsExactly(List.of(8080), List.of(3129), List.of(9090));
        assertThat(Manifests.<List<Map<String, Object>>>at(rules.get(1), "from"))
                .singleElement()
                .satisfies(f -> assertThat(Manifests.<Map<String, String>>at(f, "podSelector", "matchLabels"))
                        .containsOnly(Map.entry("app", "svix-server")));
        KubernetesApiSchema.validate(manifests.named("NetworkPolicy", PREFIX + "-app"));
    }

    @Test
    void proxyTlsServesAppsCertificateWithoutTurningTheApiToTls() {
        Map<String, Object> app = proxy().set("app.proxy.tls.enabled", true)
                .set("app.tls.secretName", "app-server-tls")
                .manifests()
                .app();

        assertThat(env(app))
                .containsEntry("EGRESS_PROXY_SSLBUNDLE", "server")
                .containsEntry(
                        "SPRING_SSL_BUNDLE_PEM_SERVER_KEYSTORE_CERTIFICATE", "file:/etc/egress/server-tls/tls.crt")
                .containsEntry(
                        "SPRING_SSL_BUNDLE_PEM_SERVER_KEYSTORE_PRIVATEKEY", "file:/etc/egress/server-tls/tls.key")
                .containsEntry("SPRING_SSL_BUNDLE_PEM_SERVER_RELOADONUPDATE", "true")
                .doesNotContainKey("SERVER_SSL_BUNDLE");
        assertThat(mounts(app)).containsEntry("/etc/egress/server-tls", "server-tls");
        assertThat(Manifests.<String>at(volume(app, "server-tls"), "secret", "secretName"))
                .isEqualTo("app-server-tls");
        assertThat(Manifests.<String>at(containers(app).get(0), "readinessProbe", "httpGet", "scheme"))
                .isEqualTo("HTTP");
    }

    @Test
    void proxyTlsBesideApiTlsSharesTheOneBundle() {
        Map<String, Object> app = proxy().set("app.tls.enabled", true)
                .set("app.proxy.tls.enabled", true)
                .set("app.tls.secretName", "app-server-tls")
                .manifests()
                .app();

        assertThat(env(app))
                .containsEntry("SERVER_SSL_BUNDLE", "server")
                .containsEntry("EGRESS_PROXY_SSLBUNDLE", "server");
        assertThat(Manifests.<List<Map<String, Object>>>at(Manifests.podSpec(app), "volumes"))
                .filteredOn(v -> "server-tls".equals(v.get("name")))
                .hasSize(1);
    }

    @Test
    void apiTlsAloneLeavesTheProxyInPlainText() {
        Map<String, Object> app = proxy().set("app.tls.enabled", true)
                .set("app.tls.secretName", "app-server-tls")
                .manifests()
                .app();

        assertThat(env(app)).containsEntry("SERVER_SSL_BUNDLE", "server").doesNotContainKey("EGRESS_PROXY_SSLBUNDLE");
    }

    @Test
    void proxyTlsWithoutASecretFailsTheRender() {
        assertThatThrownBy(proxy().set("app.proxy.tls.enabled", true)::text)
                .hasMessageContaining("app.tls.secretName is required when app.proxy.tls.enabled is true");
    }

    @Test
    void theSchemaRefusesAProxyPortOutOfRangeAndAnUnknownKey() {
        assertThatThrownBy(proxy().set("app.proxy.port", 70000)::text).hasMessageContaining("/app/proxy/port");
        assertThatThrownBy(proxy().set("app.proxy.allowedPort[0]", 443)::text).hasMessageContaining("allowedPort");
    }

    @Test
    void tenantsMayListDestinationsInThePolicy() {
        Map<String, Object> configMap = proxy().set("app.tenants.policy.tenants[0].id", "acme")
                .set("app.tenants.policy.tenants[0].dedicatedIps[0]", "198.51.100.10")
                .set("app.tenants.policy.tenants[0].destinations[0]", "*.acme.example")
                .manifests()
                .named("ConfigMap", PREFIX + "-tenants");

        Map<String, Object> policy =
                ChartRendering.yaml().load(Manifests.<String>at(configMap, "data", "tenants.yaml"));
        List<Map<String, Object>> tenants = at(policy, "tenants");
        assertThat(tenants.get(0)).containsEntry("destinations", List.of("*.acme.example"));
    }

    private static List<Map<String, Object>> rules(Manifests manifests) {
        return at(manifests.named("NetworkPolicy", PREFIX + "-app"), "spec", "ingress");
    }

    private static List<List<Object>> ports(List<Map<String, Object>> rules) {
        return rules.stream()
                .map(r -> Manifests.<List<Map<String, Object>>>at(r, "ports").stream()
                        .map(p -> p.get("port"))
                        .toList())
                .toList();
    }
}
