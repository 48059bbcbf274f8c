package dev.egress.app.tenants;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.egress.discovery.registry.EgressIp;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TenantPolicyStoreTest {

    @TempDir
    Path dir;

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    private TenantPolicyStore store(Path file) {
        return new TenantPolicyStore(new TenantsProperties(file, Duration.ofMillis(50)), meters, Clock.systemUTC());
    }

    /** Writes like a careful operator (or a ConfigMap): a complete new file moved into place. */
    private static void replace(Path file, String content) throws Exception {
        Path tmp = Files.writeString(file.resolveSibling(file.getFileName() + ".tmp"), content);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    @Test
    void appliesAValidChangeAndKeepsTheLastGoodOnAnInvalidOne() throws Exception {
        Path file = Files.writeString(dir.resolve("t.yaml"), "sharedPool: [127.0.0.8]\ntenants: [{id: a}]\n");
        try (TenantPolicyStore store = store(file)) {
            AtomicInteger swaps = new AtomicInteger();
            store.addListener(p -> swaps.incrementAndGet());

            replace(file, "sharedPool: [127.0.0.8]\ntenants: [{id: a}, {id: b, dedicatedIps: [127.0.0.2]}]\n");
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> store.current().tenant("b").isPresent());
            assertThat(swaps).hasValue(1);

            replace(file, "sharedPool: [127.0.0.8]\ntenants: [{id: a}, {id: b, dedicatedIps: [nope]}]\n");
            await().atMost(Duration.ofSeconds(20)).until(() -> !store.state().valid());
            assertThat(store.current().tenant("b")).isPresent();
            assertThat(store.state().lastError()).contains("tenants[1].dedicatedIps[0]");
            assertThat(meters.get("egress.tenants.reloads")
                            .tag("result", "rejected")
                            .counter()
                            .count())
                    .isGreaterThanOrEqualTo(1);
            assertThat(meters.get("egress.tenants.file.valid").gauge().value()).isZero();

            Files.delete(file);
            store.refresh();
            assertThat(store.current().tenants()).containsKeys("a", "b");

            replace(file, "sharedPool: [127.0.0.9]\ntenants: [{id: c}]\n");
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> store.current().tenant("c").isPresent());
            assertThat(store.state().valid()).isTrue();
            assertThat(store.state().lastError()).isNull();
            assertThat(swaps).hasValue(2);
        }
    }

    @Test
    void aDedicatedIpGivenToTwoTenantsIsRejectedKeepingTheLastGoodPolicy() throws Exception {
        Path file = Files.writeString(dir.resolve("t.yaml"), """
                tenants:
                  - id: acme
                    dedicatedIps: [127.0.0.3]
                  - id: globex
                    dedicatedIps: [127.0.0.4]
                """);
        try (TenantPolicyStore store = store(file)) {
            replace(file, """
                    tenants:
                      - id: acme
                        dedicatedIps: [127.0.0.3]
                      - id: globex
                        dedicatedIps: [127.0.0.3]   # taken from acme by mistake
                    """);
            // (The comment also changes the size: a same-size rewrite within one file-timestamp tick of the
            // first write would look unchanged to the poller's cheap stat check.)
            await().atMost(Duration.ofSeconds(20)).until(() -> !store.state().valid());

            assertThat(store.current().tenant("globex").orElseThrow().dedicatedIps())
                    .containsExactly(EgressIp.of("127.0.0.4"));
            assertThat(store.state().lastError()).contains("127.0.0.3", "'acme'", "'globex'");
            assertThat(meters.get("egress.tenants.file.valid").gauge().value()).isZero();
            assertThat(meters.get("egress.tenants.reloads")
                            .tag("result", "rejected")
                            .counter()
                            .count())
                    .isEqualTo(1);
            var health = new TenantsHealthIndicator(store).health();
            assertThat(health.getDetails()).containsEntry("valid", false);
            assertThat((String) health.getDetails().get("lastError")).contains("127.0.0.3", "acme", "globex");
        }
    }

    @Test
    void aDedicatedIpGivenToTwoTenantsUnderTwoSpellingsIsRejectedKeepingTheLastGoodPolicy() throws Exception {
        Path file = Files.writeString(dir.resolve("t.yaml"), """
                tenants:
                  - id: acme
                    dedicatedIps: [127.0.0.3]
                  - id: globex
                    dedicatedIps: [127.0.0.4]
                """);
        try (TenantPolicyStore store = store(file)) {
            replace(file, """
                    tenants:
                      - id: acme
                        dedicatedIps: [127.0.0.3]
                      - id: globex
                        dedicatedIps: ["::ffff:127.0.0.3"]   # acme's IP, IPv4-mapped
                    """);
            await().atMost(Duration.ofSeconds(20)).until(() -> !store.state().valid());

            assertThat(store.current().tenant("globex").orElseThrow().dedicatedIps())
                    .containsExactly(EgressIp.of("127.0.0.4"));
            assertThat(store.state().lastError()).contains("127.0.0.3", "'acme'", "'globex'");
        }
    }

    @Test
    void anUnchangedFileIsNotReapplied() throws Exception {
        Path file = Files.writeString(dir.resolve("t.yaml"), "sharedPool: [127.0.0.8]\ntenants: [{id: a}]\n");
        try (TenantPolicyStore store = store(file)) {
            TenantPolicy first = store.current();
            replace(file, "sharedPool: [127.0.0.8]\ntenants: [{id: a}]\n");
            Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() + 5000));
            store.refresh();
            assertThat(store.current()).isSameAs(first);
        }
    }

    @Test
    void countsEachAppliedFileAndGaugesItsTenants() throws Exception {
        Path file = Files.writeString(dir.resolve("t.yaml"), "sharedPool: [127.0.0.8]\ntenants: [{id: a}]\n");
        try (TenantPolicyStore store = store(file)) {
            assertThat(meters.get("egress.tenants.reloads")
                            .tag("result", "applied")
                            .counter()
                            .count())
                    .isEqualTo(1);
            assertThat(meters.get("egress.tenants").gauge().value()).isEqualTo(1);
            assertThat(meters.get("egress.tenants.file.valid").gauge().value()).isEqualTo(1);

            replace(file, "sharedPool: [127.0.0.8]\ntenants: [{id: a}, {id: b}, {id: c}]\n");
            store.refresh();

            assertThat(meters.get("egress.tenants.reloads")
                            .tag("result", "applied")
                            .counter()
                            .count())
                    .isEqualTo(2);
            assertThat(meters.get("egress.tenants").gauge().value()).isEqualTo(3);
            assertThat(meters.get("egress.tenants.reloads")
                            .tag("result", "rejected")
                            .counter()
                            .count())
                    .isZero();
        }
    }

    @Test
    void anInvalidFileTouchedAgainIsNotRejectedAgainButRestoringTheLastGoodOneClearsTheError() throws Exception {
        String good = "sharedPool: [127.0.0.8]\ntenants: [{id: a}]\n";
        Path file = Files.writeString(dir.resolve("t.yaml"), good);
        try (TenantPolicyStore store = store(file)) {
            replace(file, "sharedPool: [127.0.0.8]\ntenants: [{id: a, dedicatedIps: [nope]}]\n");
            store.refresh();
            TenantPolicyStore.State rejected = store.state();

            Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() + 5000));
            store.refresh();

            assertThat(store.state()).isEqualTo(rejected);
            assertThat(meters.get("egress.tenants.reloads")
                            .tag("result", "rejected")
                            .counter()
                            .count())
                    .isEqualTo(1);

            replace(file, good);
            store.refresh();

            assertThat(store.state().valid()).isTrue();
            assertThat(store.state().lastError()).isNull();
        }
    }

    @Test
    void refusesAFileOverEightMebibytesUnreadButReadsOneOfExactlyThatSize() throws Exception {
        Path file = Files.writeString(dir.resolve("t.yaml"), "sharedPool: [127.0.0.8]\ntenants: [{id: a}]\n");
        try (TenantPolicyStore store = store(file)) {
            // Broken from its first character, so the parser stops at once: the test only needs to see it reached.
            String limit = "]" + " ".repeat(TenantPolicyStore.MAX_FILE_BYTES - 1);

            replace(file, limit + " ");
            store.refresh();
            assertThat(store.state().lastError()).isEqualTo("file is 8388609 bytes (expected: <= 8388608)");

            replace(file, limit);
            store.refresh();
            assertThat(store.state().lastError()).startsWith("not valid YAML");
        }
    }

    @Test
    void readsAFileLargerThanTheYamlParsersDefaultLimit() throws Exception {
        Path file = Files.writeString(dir.resolve("t.yaml"), "sharedPool: [127.0.0.8]\ntenants: [{id: a}]\n");
        try (TenantPolicyStore store = store(file)) {
            // The filler comes first: SnakeYAML checks its limit each time it reads the next token, so a limit
            // passed inside a trailing comment would never be seen.
            replace(file, "#" + "x".repeat(3 * 1024 * 1024 + 1) + "\nsharedPool: [127.0.0.8]\ntenants: [{id: b}]\n");
            store.refresh();

            assertThat(store.state().lastError()).isNull();
            assertThat(store.current().tenant("b")).isPresent();
        }
    }

    @Test
    void closingStopsPollingTheFileOnTheSharedDaemonPoller() throws Exception {
        Path file = Files.writeString(dir.resolve("t.yaml"), "sharedPool: [127.0.0.8]\ntenants: [{id: a}]\n");
        AtomicReference<Thread> poller = new AtomicReference<>();
        TenantPolicyStore store = store(file);
        store.addListener(p -> poller.set(Thread.currentThread()));
        // Another size, so the poller sees the change even within the file system's timestamp granularity.
        replace(file, "sharedPool: [127.0.0.8]\ntenants: [{id: bb}]\n");
        await().atMost(Duration.ofSeconds(20)).until(() -> poller.get() != null);
        assertThat(poller.get().isDaemon())
                .as("the poller never keeps the JVM alive")
                .isTrue();
        assertThat(poller.get().getName())
                .as("one poller for every watched file, not a thread per store")
                .isEqualTo("egress-file-watch");

        store.close();
        replace(file, "sharedPool: [127.0.0.8]\ntenants: [{id: ccc}]\n");

        await().during(Duration.ofMillis(500))
                .atMost(Duration.ofSeconds(5))
                .until(() -> store.current().tenant("bb").isPresent());
        assertThat(store.current().tenant("ccc")).isEmpty();
    }

    @Test
    void appliesAChangeThatKeepsTheFileSize() throws Exception {
        Path file = Files.writeString(dir.resolve("t.yaml"), "sharedPool: [127.0.0.8]\ntenants: [{id: a}]\n");
        try (TenantPolicyStore store = store(file)) {
            replace(file, "sharedPool: [127.0.0.8]\ntenants: [{id: b}]\n");
            Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() + 5000));
            store.refresh();

            assertThat(store.current().tenant("b")).isPresent();
        }
    }

    @Test
    void refusesToStartWithoutTheFileNamingWhy() {
        assertThatThrownBy(() -> store(dir.resolve("missing.yaml")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("missing.yaml: cannot read: java.nio.file.NoSuchFileException");
    }

    @Test
    void refusesToStartWithAnOversizeFileNamingItsSize() throws Exception {
        Path file = Files.writeString(dir.resolve("t.yaml"), " ".repeat(TenantPolicyStore.MAX_FILE_BYTES + 1));

        assertThatThrownBy(() -> store(file))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageEndingWith("t.yaml: file is 8388609 bytes (expected: <= 8388608)");
    }

    @Test
    void refusesToStartWithAnInvalidFile() throws Exception {
        Path file = Files.writeString(dir.resolve("t.yaml"), "tenants: [{id: a}]\n");
        assertThatThrownBy(() -> store(file))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("sharedPool");
    }
}
