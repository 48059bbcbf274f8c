package dev.egress.discovery.trust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.trust.testing.TestPki;
import java.security.cert.CertificateException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class PeerTrustManagerTest {

    private static TestPki borderCa;
    private static TestPki appCa;
    private static Identity borderA;
    private static Identity app;
    private static TrustBundle borders;
    private static TrustBundle apps;

    @BeforeAll
    static void pki() {
        borderCa = TestPki.create("border CA");
        appCa = TestPki.create("app CA");
        borderA = identity(borderCa.border("border-a"));
        app = identity(appCa.app("app-1"));
        try (var b = ReloadingFile.bundle(borderCa.caPem(), "border-ca", Duration.ofHours(1));
                var a = ReloadingFile.bundle(appCa.caPem(), "app-ca", Duration.ofHours(1))) {
            borders = b.get();
            apps = a.get();
        }
    }

    private static Identity identity(TestPki.Issued issued) {
        try (var file =
                ReloadingFile.identity(issued.certificate(), issued.privateKey(), "c", "k", Duration.ofHours(1))) {
            return file.get();
        }
    }

    @Test
    void acceptsTheBorderTheRouteNames() {
        assertThatCode(() -> PeerTrustManager.border(() -> borders, "egress.local", BorderId.of("border-a"))
                        .check(borderA.chainArray()))
                .doesNotThrowAnyException();
    }

    @Test
    void refusesABorderNamingAnotherId() {
        assertThatThrownBy(() -> PeerTrustManager.border(() -> borders, "egress.local", BorderId.of("border-b"))
                        .check(borderA.chainArray()))
                .isInstanceOf(CertificateException.class)
                .hasMessageContaining("spiffe://egress.local/border/border-b");
    }

    @Test
    void refusesAnAppCertificateWhereABorderIsExpected() {
        assertThatThrownBy(() -> PeerTrustManager.border(() -> apps, "egress.local", BorderId.of("border-a"))
                        .check(app.chainArray()))
                .isInstanceOf(CertificateException.class);
    }

    @Test
    void bordersAcceptAppsOfTheirCaOnly() {
        assertThatCode(() -> PeerTrustManager.apps(() -> apps, "egress.local").check(app.chainArray()))
                .doesNotThrowAnyException();
        assertThatThrownBy(
                        () -> PeerTrustManager.apps(() -> apps, "egress.local").check(borderA.chainArray()))
                .isInstanceOf(CertificateException.class)
                .hasMessageContaining("not trusted");
        assertThatThrownBy(() ->
                        PeerTrustManager.apps(() -> borders, "egress.local").check(borderA.chainArray()))
                .isInstanceOf(CertificateException.class)
                .hasMessageContaining("spiffe://egress.local/app/<name>");
    }

    @Test
    void checksAResumedSessionAgainAndCountsOnlyThoseItAccepts() {
        PeerTrustManager toBorderA = PeerTrustManager.border(() -> borders, "egress.local", BorderId.of("border-a"));
        PeerTrustManager appsOnly = PeerTrustManager.apps(() -> apps, "egress.local");

        assertThatCode(() -> toBorderA.resumeServerTrusted(borderA.chainArray(), null))
                .doesNotThrowAnyException();
        assertThatCode(() -> appsOnly.resumeClientTrusted(app.chainArray(), null))
                .doesNotThrowAnyException();
        // The session's chain no longer acceptable (another CA now, another id expected): refused on resumption.
        assertThatThrownBy(() -> PeerTrustManager.border(() -> apps, "egress.local", BorderId.of("border-a"))
                        .resumeServerTrusted(borderA.chainArray(), null))
                .isInstanceOf(CertificateException.class)
                .hasMessageContaining("not trusted");
        assertThatThrownBy(() -> appsOnly.resumeClientTrusted(borderA.chainArray(), null))
                .isInstanceOf(CertificateException.class);

        assertThat(toBorderA.resumptions()).isEqualTo(1);
        assertThat(appsOnly.resumptions()).isEqualTo(1);
    }

    @Test
    void validatesAChainOncePerBundleAndAgainWhenTheBundleIsReloaded() throws Exception {
        AtomicReference<TrustBundle> current = new AtomicReference<>(apps);
        PeerTrustManager trust = PeerTrustManager.apps(current::get, "egress.local");

        trust.check(app.chainArray());
        trust.check(app.chainArray());
        assertThat(trust.validations())
                .as("one validation for two calls with the same chain")
                .isEqualTo(1);

        try (var reloaded = ReloadingFile.bundle(appCa.caPem(), "app-ca", Duration.ofHours(1))) {
            current.set(reloaded.get());
        }
        trust.check(app.chainArray());
        assertThat(trust.validations())
                .as("validated again against the reloaded bundle")
                .isEqualTo(2);
    }

    @Test
    void refusesAChainThatPassedOnceAfterItsCaLeftTheBundle() throws Exception {
        AtomicReference<TrustBundle> current = new AtomicReference<>(apps);
        PeerTrustManager trust = PeerTrustManager.apps(current::get, "egress.local");
        trust.check(app.chainArray());

        current.set(borders);

        assertThatThrownBy(() -> trust.check(app.chainArray()))
                .isInstanceOf(CertificateException.class)
                .hasMessageContaining("not trusted");
    }
}
