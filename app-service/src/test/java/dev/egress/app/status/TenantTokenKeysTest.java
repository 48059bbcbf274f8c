package dev.egress.app.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.egress.app.config.SecurityProperties;
import dev.egress.app.tenants.TenantPolicyStore;
import dev.egress.app.tenants.TenantsProperties;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.health.contributor.Status;

class TenantTokenKeysTest {

    @TempDir
    Path dir;

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private TenantPolicyStore tenants;

    @AfterEach
    void tearDown() {
        if (tenants != null) {
            tenants.close();
        }
    }

    private Path tenantsFile(String... ids) throws Exception {
        StringBuilder yaml = new StringBuilder("sharedPool: [127.0.0.8]\ntenants:\n");
        for (String id : ids) {
            yaml.append("  - id: ").append(id).append('\n');
        }
        return Files.writeString(dir.resolve("tenants.yaml"), yaml);
    }

    private TenantPolicyStore store(Path file) {
        tenants = new TenantPolicyStore(new TenantsProperties(file, Duration.ofSeconds(60)), meters, Clock.systemUTC());
        return tenants;
    }

    private static SecurityProperties keys(Map<String, List<String>> tokens, Map<String, String> files) {
        return new SecurityProperties(List.of(), "", tokens, files, "", "", "", "", false);
    }

    @Test
    void aKeyNamingNoTenantStopsTheStartNamingTheProperty() throws Exception {
        TenantPolicyStore store = store(tenantsFile("acme"));

        assertThatThrownBy(() -> new TenantTokenKeys(
                        keys(Map.of("acme", List.of("a1"), "acme-corp", List.of("x1")), Map.of("globex", "/g")),
                        store,
                        meters))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("egress.security.tenant-api-tokens.acme-corp")
                .hasMessageContaining("egress.security.tenant-api-token-files.globex")
                .hasMessageNotContaining("tenant-api-tokens.acme,")
                .hasMessageNotContaining("x1");
    }

    @Test
    void keysNamingTenantsStartAndAreValid() throws Exception {
        TenantPolicyStore store = store(tenantsFile("acme", "globex"));

        TenantTokenKeys check =
                new TenantTokenKeys(keys(Map.of("acme", List.of("a1")), Map.of("globex", "/g")), store, meters);

        assertThat(check.health().getStatus()).isEqualTo(Status.UP);
        assertThat(check.health().getDetails()).containsEntry("valid", true).containsEntry("keys", 2);
        assertThat(meters.get("egress.security.tenant.tokens.unknown").gauge().value())
                .isZero();
    }

    @Test
    void aReloadThatDropsABoundTenantIsAppliedAndShownUntilTheTenantIsBack() throws Exception {
        Path file = tenantsFile("acme", "globex");
        TenantPolicyStore store = store(file);
        TenantTokenKeys check = new TenantTokenKeys(keys(Map.of("globex", List.of("g1")), Map.of()), store, meters);

        tenantsFile("acme");
        store.refresh();

        // The offboarding applies (globex is gone from routing), and the leftover key is reported.
        await().untilAsserted(() -> assertThat(store.current().tenants()).doesNotContainKey("globex"));
        await().untilAsserted(() -> assertThat(check.health().getDetails())
                .containsEntry("valid", false)
                .containsEntry("unknownTenants", Map.of("globex", "egress.security.tenant-api-tokens.globex")));
        assertThat(meters.get("egress.security.tenant.tokens.unknown").gauge().value())
                .isEqualTo(1.0);

        tenantsFile("acme", "globex");
        store.refresh();

        await().untilAsserted(() -> assertThat(check.health().getDetails()).containsEntry("valid", true));
        assertThat(meters.get("egress.security.tenant.tokens.unknown").gauge().value())
                .isZero();
    }
}
