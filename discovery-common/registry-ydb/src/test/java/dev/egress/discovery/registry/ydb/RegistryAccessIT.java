package dev.egress.discovery.registry.ydb;

import static dev.egress.discovery.registry.ydb.RegistryFixture.announcement;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.discovery.registry.Registration;
import dev.egress.discovery.registry.RegistrationState;
import dev.egress.discovery.registry.RegistryAuth;
import dev.egress.discovery.trust.testing.TestCertificates;
import dev.egress.ydb.coordination.NodeAccess;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Access control through the real SDK: the node demands a token (as a YDB with user-token enforcement
 * does) and/or serves grpcs with a private CA; only correctly configured participants get in.
 */
class RegistryAccessIT {

    private static final Duration CONVERGE = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @AutoClose
    private RegistryFixture fixture;

    @Test
    void onlyTheAcceptedTokenRegistersAndWatches() {
        fixture = new RegistryFixture(
                Duration.ofSeconds(2), Duration.ofMillis(200), NodeAccess.ANONYMOUS.withTokens(Set.of("good-token")));
        RegistryFixture.Watched watched = fixture.watcher(new RegistryAuth("good-token", null, null));
        Registration good = fixture.border(new RegistryAuth("good-token", null, null), new SimpleMeterRegistry())
                .register(announcement("border-good", "127.0.0.2"));
        SimpleMeterRegistry wrongMeters = new SimpleMeterRegistry();
        Registration wrong = fixture.border(new RegistryAuth("wrong-token", null, null), wrongMeters)
                .register(announcement("border-wrong", "127.0.0.3"));
        SimpleMeterRegistry anonymousMeters = new SimpleMeterRegistry();
        Registration anonymous = fixture.border(RegistryAuth.NONE, anonymousMeters)
                .register(announcement("border-anonymous", "127.0.0.4"));

        await().atMost(CONVERGE)
                .until(() -> good.state() == RegistrationState.REGISTERED && watched.has("border-good"));
        await().atMost(CONVERGE).until(() -> failures(wrongMeters) >= 2 && failures(anonymousMeters) >= 2);

        assertThat(wrong.state()).isNotEqualTo(RegistrationState.REGISTERED);
        assertThat(anonymous.state()).isNotEqualTo(RegistrationState.REGISTERED);
        assertThat(watched.has("border-wrong")).isFalse();
        assertThat(watched.has("border-anonymous")).isFalse();
        RegistryFixture.Watched refused = fixture.watcher(new RegistryAuth("wrong-token", null, null));
        await().atMost(CONVERGE).until(() -> sessionFailures(refused) >= 1);
        assertThat(refused.table().isReady())
                .as("a refused watcher never presents a snapshot")
                .isFalse();
    }

    @Test
    void aRotatedTokenFileIsUsedWithoutARestart() throws Exception {
        fixture = new RegistryFixture(
                Duration.ofSeconds(2), Duration.ofMillis(200), NodeAccess.ANONYMOUS.withTokens(Set.of("token-2")));
        Path tokenFile = Files.writeString(dir.resolve("token"), "token-1\n");
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        Registration border = fixture.border(new RegistryAuth(null, tokenFile, null), meters)
                .register(announcement("border-a", "127.0.0.2"));
        await().atMost(CONVERGE).until(() -> failures(meters) >= 1);
        assertThat(border.state()).isNotEqualTo(RegistrationState.REGISTERED);

        Files.writeString(dir.resolve("token.next"), "token-2\n");
        Files.move(
                dir.resolve("token.next"),
                tokenFile,
                StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);

        await().atMost(CONVERGE).until(() -> border.state() == RegistrationState.REGISTERED);
        RegistryFixture.Watched watched = fixture.watcher(new RegistryAuth(null, tokenFile, null));
        await().atMost(CONVERGE).until(() -> watched.has("border-a"));
    }

    @Test
    void grpcsWithAPrivateCaAndATokenGetsInAndTheJdkCasAloneDoNot() {
        TestCertificates.Issued cert = TestCertificates.selfSigned("localhost", List.of("127.0.0.1"));
        fixture = new RegistryFixture(
                Duration.ofSeconds(2),
                Duration.ofMillis(200),
                NodeAccess.ANONYMOUS.withTokens(Set.of("tls-token")).withTls(cert.pem(), cert.privateKeyPem()));
        assertThat(fixture.settings().connectionString()).startsWith("grpcs://");

        RegistryAuth trusted = new RegistryAuth("tls-token", null, cert.pem());
        RegistryFixture.Watched watched = fixture.watcher(trusted);
        Registration border =
                fixture.border(trusted, new SimpleMeterRegistry()).register(announcement("border-tls", "127.0.0.5"));
        await().atMost(CONVERGE)
                .until(() -> border.state() == RegistrationState.REGISTERED && watched.has("border-tls"));

        SimpleMeterRegistry untrustedMeters = new SimpleMeterRegistry();
        Registration untrusted = fixture.border(new RegistryAuth("tls-token", null, null), untrustedMeters)
                .register(announcement("border-untrusted", "127.0.0.6"));
        await().atMost(CONVERGE).until(() -> failures(untrustedMeters) >= 1);
        assertThat(untrusted.state()).isNotEqualTo(RegistrationState.REGISTERED);
        assertThat(watched.has("border-untrusted")).isFalse();
    }

    private static double failures(SimpleMeterRegistry meters) {
        return meters.get("egress.registry.publish.failures").counter().count();
    }

    private static double sessionFailures(RegistryFixture.Watched watched) {
        return watched.meters()
                .get("egress.registry.session.failures")
                .counter()
                .count();
    }
}
