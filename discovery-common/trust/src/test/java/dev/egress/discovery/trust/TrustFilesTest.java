package dev.egress.discovery.trust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The all-or-none rule both services apply to {@code egress.trust.*}, with the peer CA each names. */
class TrustFilesTest {

    private static TrustFiles files(String certificate, String privateKey, String peerCa) {
        return new TrustFiles(certificate, privateKey, "egress.trust.app-ca", peerCa, Duration.ofSeconds(2));
    }

    @Test
    void noneSetIsNotPartlySet() {
        TrustFiles none = files("", "", "");
        assertThat(none.anySet()).isFalse();
        assertThat(none.names()).isEqualTo("egress.trust.certificate, egress.trust.private-key, egress.trust.app-ca");
        assertThat(files("", "", "ca.pem").anySet()).isTrue();
    }

    @Test
    void refusesPartOfTheFilesNamingWhatIsMissing() {
        assertThatThrownBy(() -> files("cert.pem", "key.pem", "").requireAll())
                .isInstanceOf(TrustMaterialException.class)
                .hasMessageStartingWith(
                        "egress.trust.app-ca: not set (expected: all of egress.trust.certificate, "
                                + "egress.trust.private-key and egress.trust.app-ca, or none with egress.security.insecure-local=true)");
        assertThatThrownBy(() -> files("", "", "ca.pem").requireAll())
                .hasMessageStartingWith("egress.trust.certificate, egress.trust.private-key: not set");
        files("cert.pem", "key.pem", "ca.pem").requireAll();
    }
}
