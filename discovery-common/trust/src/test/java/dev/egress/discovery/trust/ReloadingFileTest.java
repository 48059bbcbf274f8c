package dev.egress.discovery.trust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.egress.discovery.trust.testing.TestPki;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ReloadingFileTest {

    private static TestPki ca;
    private static TestPki otherCa;

    @BeforeAll
    static void pki() {
        ca = TestPki.create("reload CA");
        otherCa = TestPki.create("other CA");
    }

    @Test
    void picksUpARotatedCertificateWithoutRestart() {
        TestPki.Issued files = ca.border("border-a");
        try (ReloadingFile<Identity> identity = ReloadingFile.identity(
                files.certificate(),
                files.privateKey(),
                "egress.trust.certificate",
                "egress.trust.private-key",
                Duration.ofMillis(100))) {
            Identity before = identity.get();
            List<Identity> seen = new CopyOnWriteArrayList<>();
            identity.onChange(seen::add);

            files.replaceWith(ca.border("border-a"));

            // The new value is visible before its listeners have run (they run after the swap): wait for both.
            await().atMost(Duration.ofSeconds(10)).until(() -> !identity.get().equals(before) && !seen.isEmpty());
            assertThat(identity.get().leaf().getSerialNumber())
                    .isNotEqualTo(before.leaf().getSerialNumber());
            assertThat(seen).containsExactly(identity.get());
        }
    }

    @Test
    void keepsTheLastGoodIdentityWhenTheKeyDoesNotMatch() throws Exception {
        TestPki.Issued files = ca.border("border-a");
        TestPki.Issued other = ca.border("border-a");
        try (ReloadingFile<Identity> identity = ReloadingFile.identity(
                files.certificate(),
                files.privateKey(),
                "egress.trust.certificate",
                "egress.trust.private-key",
                Duration.ofHours(1))) {
            Identity before = identity.get();

            // Half a rotation: the new certificate is in place, its key is not yet.
            Files.copy(other.certificate(), files.certificate(), StandardCopyOption.REPLACE_EXISTING);

            assertThat(identity.refresh()).isFalse();
            assertThat(identity.get()).isEqualTo(before);

            Files.copy(other.privateKey(), files.privateKey(), StandardCopyOption.REPLACE_EXISTING);
            assertThat(identity.refresh()).isTrue();
        }
    }

    @Test
    void refusesToStartWithAKeyOfAnotherCertificate() {
        TestPki.Issued a = ca.border("border-a");
        TestPki.Issued b = otherCa.border("border-a");

        assertThatThrownBy(() -> ReloadingFile.identity(
                        a.certificate(),
                        b.privateKey(),
                        "egress.trust.certificate",
                        "egress.trust.private-key",
                        Duration.ofHours(1)))
                .isInstanceOf(TrustMaterialException.class)
                .hasMessageContaining("egress.trust.private-key")
                .hasMessageContaining("does not match");
    }

    @Test
    void refusesToStartWithAMissingFileNamingTheProperty() {
        Path missing = Path.of("/nonexistent/ca.pem");

        assertThatThrownBy(() -> ReloadingFile.bundle(missing, "egress.trust.border-ca", Duration.ofHours(1)))
                .isInstanceOf(TrustMaterialException.class)
                .hasMessageContaining("egress.trust.border-ca")
                .hasMessageContaining("/nonexistent/ca.pem");
    }

    @Test
    void reloadsTheCaBundle() throws Exception {
        Path bundle = Files.createTempFile("ca-", ".pem");
        Files.copy(ca.caPem(), bundle, StandardCopyOption.REPLACE_EXISTING);
        try (ReloadingFile<TrustBundle> file =
                ReloadingFile.bundle(bundle, "egress.trust.app-ca", Duration.ofMillis(100))) {
            // Rotation of a CA: old and new in one bundle for a while.
            Files.writeString(bundle, Files.readString(ca.caPem()) + Files.readString(otherCa.caPem()));

            await().atMost(Duration.ofSeconds(10))
                    .until(() -> file.get().anchors().size() == 2);
        }
    }
}
