package dev.egress.discovery.trust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.discovery.trust.testing.TestPki;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class IdentityKeyManagerTest {

    @Test
    void nextHandshakePresentsTheRotatedCertificateWithItsOwnKey() {
        TestPki ca = TestPki.create("key manager CA");
        TestPki.Issued files = ca.app("app-1");
        try (ReloadingFile<Identity> identity = ReloadingFile.identity(
                files.certificate(),
                files.privateKey(),
                "egress.trust.certificate",
                "egress.trust.private-key",
                Duration.ofMillis(100))) {
            IdentityKeyManager keys = new IdentityKeyManager(identity);
            String before = keys.chooseEngineClientAlias(new String[] {"EC"}, null, null);
            Identity first = identity.get();

            files.replaceWith(ca.app("app-1"));
            await().atMost(Duration.ofSeconds(10)).until(() -> !identity.get().equals(first));

            String after = keys.chooseEngineClientAlias(new String[] {"EC"}, null, null);
            assertThat(after).isNotEqualTo(before);
            assertThat(keys.getCertificateChain(after)[0])
                    .isEqualTo(identity.get().leaf());
            assertThat(keys.getPrivateKey(after)).isEqualTo(identity.get().key());
            // A handshake that chose its alias before the swap still gets the old pair, consistently.
            assertThat(keys.getCertificateChain(before)[0]).isEqualTo(first.leaf());
            assertThat(keys.getPrivateKey(before)).isEqualTo(first.key());
        }
    }
}
