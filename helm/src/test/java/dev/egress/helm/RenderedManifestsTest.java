package dev.egress.helm;

import static dev.egress.helm.Manifests.at;
import static dev.egress.helm.Manifests.containers;
import static dev.egress.helm.Manifests.env;
import static dev.egress.helm.Manifests.podAnnotations;
import static dev.egress.helm.Manifests.podLabels;
import static dev.egress.helm.Manifests.podSpec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Assertions on what the chart renders, for the default values and for both documented Border modes. */
class RenderedManifestsTest {

    private static final String PREFIX = ChartRendering.PREFIX;

    private final Manifests hostNetwork =
            ChartRendering.render().example("values-hostnetwork.yaml").manifests();
    private final Manifests multus =
            ChartRendering.render().example("values-multus.yaml").manifests();

    @Test
    void defaultsRenderAppOnlyAndNoBorderWithoutInstances() {
        Manifests defaults = ChartRendering.render().manifests();

        assertThat(defaults.deployments())
                .extracting(d -> at(d, "metadata", "name"))
                .containsExactly(PREFIX + "-app");
        assertThat(defaults.ofKind("NetworkPolicy"))
                .as("App's own policy only: no Border, no Border policy")
                .extracting(p -> at(p, "metadata", "name"))
                .containsExactly(PREFIX + "-app");
        assertThat(defaults.ofKind("ServiceMonitor")).isEmpty();
        assertThat(defaults.ofKind("StatefulSet")).isEmpty();
        assertThat(defaults.names())
                .contains(
                        "Secret/" + PREFIX + "-tokens",
                        "ConfigMap/" + PREFIX + "-tenants",
                        "Service/" + PREFIX + "-app",
                        "Service/" + PREFIX + "-app-management",
                        "PodDisruptionBudget/" + PREFIX + "-app");
    }

    @Test
    void everyWorkloadHasStartupLivenessAndReadinessProbesOnTheActuatorGroups() {
        assertThat(hostNetwork.workloads()).hasSize(3);
        for (Map<String, Object> deployment : hostNetwork.workloads()) {
            Map<String, Object> container = containers(deployment).get(0);
            assertThat(Manifests.<String>at(container, "startupProbe", "httpGet", "path"))
                    .isEqualTo("/actuator/health/liveness");
            assertThat(Manifests.<String>at(container, "livenessProbe", "httpGet", "path"))
                    .isEqualTo("/actuator/health/liveness");
            assertThat(Manifests.<String>at(container, "readinessProbe", "httpGet", "path"))
                    .isEqualTo("/actuator/health/readiness");
            assertThat(Manifests.<String>at(container, "readinessProbe", "httpGet", "port"))
                    .isEqualTo("management");
            List<Map<String, Object>> ports = at(container, "ports");
            // The forward proxy (app.proxy.enabled) is off by default, so no proxy port.
            assertThat(ports).extracting(p -> p.get("name")).containsExactlyInAnyOrder("http", "management");
        }
    }

    @Test
    void deploymentSelectorsMatchTheirPodTemplateLabels() {
        for (Manifests manifests : List.of(hostNetwork, multus)) {
            for (Map<String, Object> deployment : manifests.workloads()) {
                Map<String, String> selector = at(deployment, "spec", "selector", "matchLabels");
                assertThat(podLabels(deployment)).containsAllEntriesOf(selector);
            }
        }
    }

    @Test
    void servicesAndDisruptionBudgetsSelectTheirComponentsPods() {
        Map<String, Object> app = hostNetwork.named("Deployment", PREFIX + "-app");
        Map<String, Object> borderA = hostNetwork.border("border-a");
        Map<String, Object> borderB = hostNetwork.border("border-b");

        Map<String, String> appService = at(hostNetwork.named("Service", PREFIX + "-app"), "spec", "selector");
        Map<String, String> appPdb =
                at(hostNetwork.named("PodDisruptionBudget", PREFIX + "-app"), "spec", "selector", "matchLabels");
        Map<String, String> borderPdb =
                at(hostNetwork.named("PodDisruptionBudget", PREFIX + "-border"), "spec", "selector", "matchLabels");

        assertThat(podLabels(app)).containsAllEntriesOf(appService).containsAllEntriesOf(appPdb);
        assertThat(podLabels(borderA)).containsAllEntriesOf(borderPdb);
        assertThat(podLabels(borderB)).containsAllEntriesOf(borderPdb);
        assertThat(podLabels(borderA)).doesNotContainEntry("app.kubernetes.io/component", "app");
        assertThat(podLabels(app)).doesNotContainEntry("app.kubernetes.io/component", "border");
        assertThat(Manifests.<Integer>at(
                        hostNetwork.named("PodDisruptionBudget", PREFIX + "-border"), "spec", "maxUnavailable"))
                .isEqualTo(1);
    }

    @Test
    void bothBudgetsLetUnreadyPodsBeEvictedSoADrainNeverWaitsForARegistryOutage() {
        for (String pdb : List.of(PREFIX + "-app", PREFIX + "-border")) {
            assertThat(Manifests.<String>at(
                            hostNetwork.named("PodDisruptionBudget", pdb), "spec", "unhealthyPodEvictionPolicy"))
                    .as(pdb)
                    .isEqualTo("AlwaysAllow");
        }
    }

    @Test
    void networkPolicyTargetsBorderPodsAndAdmitsOnlyAppPodsOnTheBorderHttpPort() {
        Map<String, Object> policy = multus.named("NetworkPolicy", PREFIX + "-border");
        Map<String, String> target = at(policy, "spec", "podSelector", "matchLabels");
        Map<String, Object> borderA = multus.border("border-a");
        Map<String, Object> app = multus.named("Deployment", PREFIX + "-app");

        assertThat(podLabels(borderA)).containsAllEntriesOf(target);
        assertThat(podLabels(app))
                .as("App pods are not targeted")
                .doesNotContainEntry("app.kubernetes.io/component", target.get("app.kubernetes.io/component"));
        assertThat(Manifests.<List<String>>at(policy, "spec", "policyTypes")).containsExactly("Ingress", "Egress");

        List<Map<String, Object>> rules = at(policy, "spec", "ingress");
        Map<String, Object> httpRule = rules.stream()
                .filter(r -> Integer.valueOf(8181)
                        .equals(Manifests.<List<Map<String, Object>>>at(r, "ports")
                                .get(0)
                                .get("port")))
                .findFirst()
                .orElseThrow();
        List<Map<String, Object>> from = at(httpRule, "from");
        assertThat(from).hasSize(1);
        Map<String, String> allowed = at(from.get(0), "podSelector", "matchLabels");
        assertThat(podLabels(app)).containsAllEntriesOf(allowed);
        assertThat(podLabels(borderA))
                .as("Borders may not call each other")
                .doesNotContainEntry("app.kubernetes.io/component", allowed.get("app.kubernetes.io/component"));
        assertThat(rules).noneMatch(r -> r.get("ports") == null);
    }

    @Test
    void aTenantPolicyChangeLeavesAppsPodTemplateAloneSoNothingRestarts() {
        Manifests changed = ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .set("app.tenants.policy.sharedPool[0]", "198.51.100.99")
                .manifests();
        Map<String, Object> before = at(hostNetwork.named("Deployment", PREFIX + "-app"), "spec", "template");
        Map<String, Object> after = at(changed.named("Deployment", PREFIX + "-app"), "spec", "template");

        // App reloads the mounted file live; a rolled pod would close every proxy tunnel it holds.
        assertThat(after).isEqualTo(before);
        assertThat(Manifests.<String>at(changed.named("ConfigMap", PREFIX + "-tenants"), "data", "tenants.yaml"))
                .contains("198.51.100.99");
        assertThat(podAnnotations(hostNetwork.named("Deployment", PREFIX + "-app")))
                .doesNotContainKeys("checksum/tenants", "checksum/secret");
    }

    @Test
    void tenantPolicyIsRenderedIntoTheMountedTenantsFile() {
        Map<String, Object> configMap = hostNetwork.named("ConfigMap", PREFIX + "-tenants");
        Map<String, Object> policy =
                ChartRendering.yaml().load(Manifests.<String>at(configMap, "data", "tenants.yaml"));
        Map<String, Object> app = hostNetwork.named("Deployment", PREFIX + "-app");

        assertThat(policy).containsEntry("sharedPool", List.of("198.51.100.20", "198.51.100.21"));
        assertThat(env(app)).containsEntry("EGRESS_TENANTS_FILE", "/config/tenants/tenants.yaml");
        List<Map<String, Object>> mounts = at(containers(app).get(0), "volumeMounts");
        assertThat(mounts).anySatisfy(m -> {
            assertThat(m).containsEntry("mountPath", "/config/tenants").doesNotContainKey("subPath");
        });
    }

    @Test
    void noImageUsesTheLatestTagAndEveryImageIsPinned() {
        for (Manifests manifests : List.of(ChartRendering.render().manifests(), hostNetwork, multus)) {
            for (Map<String, Object> deployment : manifests.workloads()) {
                for (Map<String, Object> container : containers(deployment)) {
                    String image = (String) container.get("image");
                    assertThat(image).doesNotEndWith(":latest").matches(".+(:[\\w][\\w.-]*|@sha256:[0-9a-f]{64})");
                }
            }
        }
        Manifests digest = ChartRendering.render()
                .set("app.image.digest", "sha256:" + "a".repeat(64))
                .manifests();
        assertThat((String) containers(digest.named("Deployment", PREFIX + "-app"))
                        .get(0)
                        .get("image"))
                .endsWith("@sha256:" + "a".repeat(64));
    }

    @Test
    void podsRunAsNonRootWithoutPrivilegesOnAReadOnlyRootFilesystem() {
        for (Map<String, Object> deployment : hostNetwork.workloads()) {
            assertThat(Manifests.<Boolean>at(podSpec(deployment), "securityContext", "runAsNonRoot"))
                    .isTrue();
            assertThat(Manifests.<Integer>at(podSpec(deployment), "securityContext", "runAsUser"))
                    .isPositive();
            Map<String, Object> container = containers(deployment).get(0);
            assertThat(Manifests.<Boolean>at(container, "securityContext", "runAsNonRoot"))
                    .isTrue();
            assertThat(Manifests.<Boolean>at(container, "securityContext", "allowPrivilegeEscalation"))
                    .isFalse();
            assertThat(Manifests.<Boolean>at(container, "securityContext", "readOnlyRootFilesystem"))
                    .isTrue();
            assertThat(Manifests.<List<String>>at(container, "securityContext", "capabilities", "drop"))
                    .containsExactly("ALL");
            assertThat(podSpec(deployment)).containsEntry("automountServiceAccountToken", false);
        }
    }

    @Test
    void hostNetworkBordersArePinnedToTheNodeLabelledWithTheirIdAndListenOnlyOnTheNodeInternalIp() {
        Map<String, Object> borderA = hostNetwork.border("border-a");

        assertThat(podSpec(borderA))
                .containsEntry("hostNetwork", true)
                .containsEntry("dnsPolicy", "ClusterFirstWithHostNet");
        assertThat(Manifests.<Map<String, String>>at(podSpec(borderA), "nodeSelector"))
                .containsExactly(entry("egress.dev/border-id", "border-a"));
        assertThat(Manifests.<Integer>at(borderA, "spec", "replicas")).isEqualTo(1);
        assertThat(env(borderA))
                .contains(
                        entry("EGRESS_BORDER_ID", "border-a"),
                        entry("EGRESS_BORDER_IPS", "198.51.100.10,198.51.100.11,198.51.100.20"),
                        entry("EGRESS_BORDER_ADVERTISEDURL", "https://$(POD_IP):8181"),
                        entry("SERVER_ADDRESS", "$(POD_IP)"),
                        entry("MANAGEMENT_SERVER_ADDRESS", "$(POD_IP)"),
                        entry("EGRESS_BORDER_DRAINTIMEOUT", "20s"));
        assertThat(env(borderA)).doesNotContainKey("EGRESS_SSRF_ALLOWEDRANGES");
        assertThat(Manifests.<Integer>at(podSpec(borderA), "terminationGracePeriodSeconds"))
                .as("above the 45s shutdown-phase cap")
                .isGreaterThan(45);
    }

    @Test
    void theBordersTunnelLimitsAndAddedPortsReachTheirProperties() {
        assertThat(env(hostNetwork.border("border-a")))
                .contains(
                        entry("EGRESS_TUNNEL_BYTESPERTUNNEL", "128KB"),
                        entry("EGRESS_TUNNEL_MAXBYTESPERTENANT", "32MB"),
                        entry("EGRESS_TUNNEL_MAXBYTES", "64MB"),
                        entry("EGRESS_TUNNEL_STALLTIMEOUT", "60s"),
                        entry("EGRESS_TUNNEL_IDLETIMEOUT", "6m"),
                        entry("EGRESS_TUNNEL_MAXLIFETIME", "65m"))
                .as("443 and 80 only, unless the operator adds ports")
                .doesNotContainKey("EGRESS_TUNNEL_ALLOWEDPORTS");

        Map<String, Object> border = ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .set("border.tunnel.allowedPorts[0]", 8443)
                .set("border.tunnel.allowedPorts[1]", "9000-9099")
                .set("border.tunnel.maxBytes", "256MB")
                .set("border.tunnel.maxBytesPerTenant", "64MB")
                .set("border.tunnel.bytesPerTunnel", "64KB")
                .set("border.tunnel.stallTimeout", "20s")
                .set("border.tunnel.idleTimeout", "10m")
                .set("border.tunnel.maxLifetime", "2h")
                .manifests()
                .border("border-a");

        assertThat(env(border))
                .contains(
                        entry("EGRESS_TUNNEL_ALLOWEDPORTS", "8443,9000-9099"),
                        entry("EGRESS_TUNNEL_BYTESPERTUNNEL", "64KB"),
                        entry("EGRESS_TUNNEL_MAXBYTESPERTENANT", "64MB"),
                        entry("EGRESS_TUNNEL_MAXBYTES", "256MB"),
                        entry("EGRESS_TUNNEL_STALLTIMEOUT", "20s"),
                        entry("EGRESS_TUNNEL_IDLETIMEOUT", "10m"),
                        entry("EGRESS_TUNNEL_MAXLIFETIME", "2h"));
    }

    @Test
    void trustedCertificatesAreMountedReadOnlyFromTheirSecretAndNamedToTheBorder() {
        Manifests withCa = ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .set("border.tls.trustedCertificates.secretName", "customer-cas")
                .set("border.tls.trustedCertificates.key", "bundle.pem")
                .manifests();
        Map<String, Object> border = withCa.border("border-a");
        List<Map<String, Object>> volumes = at(podSpec(border), "volumes");
        List<Map<String, Object>> mounts = at(containers(border).get(0), "volumeMounts");

        assertThat(env(border)).containsEntry("EGRESS_TLS_TRUSTEDCERTIFICATES", "/etc/egress/tls/bundle.pem");
        assertThat(volumes)
                .filteredOn(v -> "trusted-certificates".equals(v.get("name")))
                .singleElement()
                .satisfies(v -> {
                    assertThat(Manifests.<String>at(v, "secret", "secretName")).isEqualTo("customer-cas");
                    assertThat(Manifests.<List<Map<String, String>>>at(v, "secret", "items"))
                            .containsExactly(Map.of("key", "bundle.pem", "path", "bundle.pem"));
                });
        assertThat(mounts)
                .filteredOn(m -> "trusted-certificates".equals(m.get("name")))
                .singleElement()
                .satisfies(m -> assertThat(m)
                        .containsEntry("mountPath", "/etc/egress/tls")
                        .containsEntry("readOnly", true));

        Map<String, Object> plain = hostNetwork.border("border-a");
        assertThat(env(plain)).doesNotContainKey("EGRESS_TLS_TRUSTEDCERTIFICATES");
        assertThat(Manifests.<List<Map<String, Object>>>at(podSpec(plain), "volumes"))
                .noneSatisfy(v -> assertThat(v.get("name")).isEqualTo("trusted-certificates"));
    }

    @Test
    void appReadsTheRegistryWithItsOwnTokenSecretWhileBordersKeepTheirs() {
        Manifests manifests = ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .set("registry.connectionString", "grpcs://ydb.example:2135/prod")
                .set("registry.tokenSecret.name", "ydb-border-token")
                .set("registry.appTokenSecret.name", "ydb-app-reader")
                .set("registry.appTokenSecret.key", "reader-token")
                .set("app.delivery.store.tokenSecret.name", "ydb-app-delivery")
                .manifests();

        Map<String, Object> app = manifests.workloads().stream()
                .filter(w -> (PREFIX + "-app").equals(at(w, "metadata", "name")))
                .findFirst()
                .orElseThrow();
        assertThat(env(app)).containsEntry("EGRESS_REGISTRY_TOKENFILE", "/etc/egress/registry-token/reader-token");
        assertThat(Manifests.<String>at(Manifests.volume(app, "registry-token"), "secret", "secretName"))
                .isEqualTo("ydb-app-reader");
        assertThat(Manifests.<List<Map<String, String>>>at(Manifests.volume(app, "registry-token"), "secret", "items"))
                .containsExactly(Map.of("key", "reader-token", "path", "reader-token"));
        Map<String, Object> border = manifests.border("border-a");
        assertThat(env(border)).containsEntry("EGRESS_REGISTRY_TOKENFILE", "/etc/egress/registry-token/token");
        assertThat(Manifests.<String>at(Manifests.volume(border, "registry-token"), "secret", "secretName"))
                .isEqualTo("ydb-border-token");
    }

    @Test
    void aBorderRegistryTokenWithoutAppsOwnReadOnlyOneFailsTheRender() {
        // App never writes the registry: sharing the Borders' write token would let a leaked App token write slots.
        ChartRendering.Render render = ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .set("registry.connectionString", "grpcs://ydb.example:2135/prod")
                .set("registry.tokenSecret.name", "ydb-border-token");

        assertThatThrownBy(render::text)
                .hasMessageContaining("registry.appTokenSecret.name: required when registry.tokenSecret is set");
    }

    @Test
    void registryTokenAndCaSecretsAreMountedIntoAppAndBordersAsFiles() {
        Manifests secured = ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .set("registry.connectionString", "grpcs://ydb.example:2135/prod")
                .set("registry.tokenSecret.name", "ydb-token")
                .set("registry.appTokenSecret.name", "ydb-token")
                .set("app.delivery.store.tokenSecret.name", "ydb-token")
                .set("registry.caSecret.name", "ydb-ca")
                .manifests();

        for (String name : List.of(PREFIX + "-app", PREFIX + "-border-border-a")) {
            Map<String, Object> deployment = secured.workloads().stream()
                    .filter(w -> name.equals(at(w, "metadata", "name")))
                    .findFirst()
                    .orElseThrow();
            List<Map<String, Object>> volumes = at(podSpec(deployment), "volumes");
            List<Map<String, Object>> mounts = at(containers(deployment).get(0), "volumeMounts");
            assertThat(env(deployment))
                    .as(name)
                    .containsEntry("EGRESS_REGISTRY_TOKENFILE", "/etc/egress/registry-token/token")
                    .containsEntry("EGRESS_REGISTRY_CACERTIFICATES", "/etc/egress/registry-ca/ca.crt")
                    .doesNotContainKey("EGRESS_REGISTRY_TOKEN");
            assertThat(volumes)
                    .as(name)
                    .anySatisfy(v -> assertThat(Manifests.<String>at(v, "secret", "secretName"))
                            .isEqualTo("ydb-token"))
                    .anySatisfy(v -> assertThat(Manifests.<String>at(v, "secret", "secretName"))
                            .isEqualTo("ydb-ca"));
            assertThat(mounts)
                    .as(name)
                    .anySatisfy(m -> assertThat(m)
                            .containsEntry("mountPath", "/etc/egress/registry-token")
                            .containsEntry("readOnly", true))
                    .anySatisfy(m -> assertThat(m)
                            .containsEntry("mountPath", "/etc/egress/registry-ca")
                            .containsEntry("readOnly", true));
        }
        for (String name : List.of(PREFIX + "-app", PREFIX + "-border-border-a")) {
            assertThat(env(hostNetwork.workloads().stream()
                            .filter(w -> name.equals(at(w, "metadata", "name")))
                            .findFirst()
                            .orElseThrow()))
                    .as(name)
                    .doesNotContainKeys("EGRESS_REGISTRY_TOKENFILE", "EGRESS_REGISTRY_CACERTIFICATES");
        }
    }

    @Test
    void podNetworkBordersCarryTheirCniAnnotationsAndNoHostNetwork() {
        Map<String, Object> borderB = multus.border("border-b");

        assertThat(podSpec(borderB)).doesNotContainKey("hostNetwork").doesNotContainKey("nodeSelector");
        assertThat(Manifests.<String>at(borderB, "kind")).isEqualTo("StatefulSet");
        assertThat(podAnnotations(borderB))
                .containsEntry(
                        "k8s.v1.cni.cncf.io/networks",
                        "[{\"name\":\"egress-net\",\"interface\":\"net1\",\"ips\":[\"198.51.100.12/24\"]}]");
        assertThat(env(borderB)).containsEntry("EGRESS_BORDER_IPS", "198.51.100.12");
    }

    @Test
    void anExistingTenantsConfigMapReplacesTheRenderedOne() {
        Manifests manifests = ChartRendering.render()
                .set("app.tenants.existingConfigMap", "my-tenants")
                .manifests();
        List<Map<String, Object>> volumes = at(podSpec(manifests.named("Deployment", PREFIX + "-app")), "volumes");

        assertThat(manifests.ofKind("ConfigMap")).isEmpty();
        assertThat(manifests.objects()).allSatisfy(KubernetesApiSchema::validate);
        assertThat(volumes)
                .anySatisfy(v ->
                        assertThat(Manifests.<String>at(v, "configMap", "name")).isEqualTo("my-tenants"));
    }

    @Test
    void serviceMonitorsScrapeThePrometheusEndpointOfBothComponents() {
        List<Map<String, Object>> monitors =
                hostNetwork.ofKind("ServiceMonitor").toList();

        assertThat(monitors).hasSize(2);
        for (Map<String, Object> monitor : monitors) {
            List<Map<String, Object>> endpoints = at(monitor, "spec", "endpoints");
            assertThat(endpoints.get(0))
                    .containsEntry("path", "/actuator/prometheus")
                    .containsEntry("port", "management");
            Map<String, String> selector = at(monitor, "spec", "selector", "matchLabels");
            List<Map<String, Object>> selected = hostNetwork
                    .ofKind("Service")
                    .filter(s -> Manifests.<Map<String, String>>at(s, "metadata", "labels")
                            .entrySet()
                            .containsAll(selector.entrySet()))
                    .toList();
            assertThat(selected)
                    .as("services selected by %s", selector)
                    .singleElement()
                    .satisfies(service -> assertThat(Manifests.<List<Map<String, Object>>>at(service, "spec", "ports"))
                            .anySatisfy(p -> assertThat(p).containsEntry("name", "management")));
        }
    }
}
