package dev.egress.app.tenants;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.discovery.registry.testing.MutableClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

class TenantsHealthIndicatorTest {

    @TempDir
    Path dir;

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-30T10:00:00Z"));

    @Test
    void reportsTheAppliedFileAndItsTenantCount() throws Exception {
        Path file = Files.writeString(dir.resolve("t.yaml"), "sharedPool: [127.0.0.8]\ntenants: [{id: a}, {id: b}]\n");
        try (TenantPolicyStore store = store(file)) {
            Health health = new TenantsHealthIndicator(store).health();

            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails())
                    .containsEntry("file", file.toString())
                    .containsEntry("tenants", 2)
                    .containsEntry("valid", true)
                    .containsEntry("appliedAt", "2026-11-30T10:00:00Z")
                    .doesNotContainKeys("lastError", "lastErrorAt");
        }
    }

    @Test
    void staysUpButNamesTheErrorWhileAnInvalidEditIsPending() throws Exception {
        Path file = Files.writeString(dir.resolve("t.yaml"), "sharedPool: [127.0.0.8]\ntenants: [{id: a}]\n");
        try (TenantPolicyStore store = store(file)) {
            clock.advance(Duration.ofMinutes(1));
            Files.writeString(file, "sharedPool: [127.0.0.8]\ntenants: [{id: a, dedicatedIps: [nope]}]\n");
            store.refresh();

            Health health = new TenantsHealthIndicator(store).health();

            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails())
                    .containsEntry("valid", false)
                    .containsEntry("tenants", 1)
                    .containsEntry("appliedAt", "2026-11-30T10:00:00Z")
                    .containsEntry("lastErrorAt", "2026-11-30T10:01:00Z");
            assertThat((String) health.getDetails().get("lastError"))
                    .startsWith("tenants[0].dedicatedIps[0]: ip: 'nope'");
        }
    }

    private TenantPolicyStore store(Path file) {
        return new TenantPolicyStore(
                new TenantsProperties(file, Duration.ofHours(1)), new SimpleMeterRegistry(), clock);
    }
}
