package dev.egress.discovery.trust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.trust.testing.TestPki;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class SignedRecordsTest {

    private static final SpiffeId BORDER_A = SpiffeId.border("egress.local", BorderId.of("border-a"));
    private static final byte[] RECORD =
            "{\"version\":1,\"borderId\":\"border-a\",\"decisions\":{\"127.0.0.3\":\"DISABLED\"}}"
                    .getBytes(StandardCharsets.US_ASCII);

    static TestPki pki;
    static TestPki otherPki;
    static Identity borderA;
    static Identity borderARotated;
    static Identity borderB;
    static Identity borderAFromAnotherCa;
    static TrustBundle ca;

    @BeforeAll
    static void issue() {
        pki = TestPki.create("records-ca");
        otherPki = TestPki.create("other-ca");
        borderA = TestPki.identity(pki.border("border-a", "127.0.0.3"));
        borderARotated = TestPki.identity(pki.border("border-a", "127.0.0.3"));
        borderB = TestPki.identity(pki.border("border-b", "127.0.0.3"));
        borderAFromAnotherCa = TestPki.identity(otherPki.border("border-a", "127.0.0.3"));
        try (ReloadingFile<TrustBundle> file = ReloadingFile.bundle(pki.caPem(), "ca", Duration.ofHours(1))) {
            ca = file.get();
        }
    }

    @Test
    void aRecordSignedByTheCurrentKeyVerifiesAndGivesItsExactBytes() {
        byte[] signed = SignedRecords.sign(RECORD, borderA);

        assertThat(SignedRecords.looksSigned(signed)).isTrue();
        assertThat(SignedRecords.verify(signed, BORDER_A, borderA, null)).isEqualTo(RECORD);
    }

    @Test
    void aRecordSignedBeforeARotationVerifiesThroughTheCaOnly() {
        byte[] signed = SignedRecords.sign(RECORD, borderA);

        assertThat(SignedRecords.verify(signed, BORDER_A, borderARotated, ca)).isEqualTo(RECORD);
        assertThatThrownBy(() -> SignedRecords.verify(signed, BORDER_A, borderARotated, null))
                .isInstanceOf(UntrustedRecordException.class)
                .hasMessageContaining("another key than the current one");
    }

    @Test
    void anEditedPayloadFailsTheSignature() {
        byte[] signed = SignedRecords.sign(RECORD, borderA);
        String text = new String(signed, StandardCharsets.US_ASCII);
        String original = Base64.getEncoder().encodeToString(RECORD);
        String edited = Base64.getEncoder()
                .encodeToString(new String(RECORD, StandardCharsets.US_ASCII)
                        .replace("DISABLED", "ACTIVE")
                        .getBytes(StandardCharsets.US_ASCII));

        byte[] tampered = text.replace(original, edited).getBytes(StandardCharsets.US_ASCII);

        assertThatThrownBy(() -> SignedRecords.verify(tampered, BORDER_A, borderA, ca))
                .isInstanceOf(UntrustedRecordException.class)
                .hasMessageContaining("signature does not verify");
    }

    @Test
    void anotherBordersRecordAForeignCaAndAnUnsignedRecordAreRefused() {
        assertThatThrownBy(() -> SignedRecords.verify(SignedRecords.sign(RECORD, borderB), BORDER_A, borderA, ca))
                .isInstanceOf(UntrustedRecordException.class)
                .hasMessageContaining("expected: spiffe://egress.local/border/border-a");
        assertThatThrownBy(() ->
                        SignedRecords.verify(SignedRecords.sign(RECORD, borderAFromAnotherCa), BORDER_A, borderA, ca))
                .isInstanceOf(UntrustedRecordException.class)
                .hasMessageContaining("no trusted CA issued");
        assertThat(SignedRecords.looksSigned(RECORD)).isFalse();
        assertThatThrownBy(() -> SignedRecords.verify(RECORD, BORDER_A, borderA, ca))
                .isInstanceOf(UntrustedRecordException.class)
                .hasMessageContaining("unsigned");
    }
}
