package dev.egress.discovery.files.hash;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class Sha256Test {

    @Test
    void digestsAsTheStandardSays() {
        // FIPS 180-2, appendix B.1: SHA-256("abc").
        assertThat(HexFormat.of().formatHex(Sha256.of("abc".getBytes(StandardCharsets.US_ASCII))))
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    @Test
    void aDigestFedInPartsEqualsTheDigestOfTheWhole() {
        var parts = Sha256.digest();
        parts.update("a".getBytes(StandardCharsets.US_ASCII));
        parts.update("bc".getBytes(StandardCharsets.US_ASCII));
        assertThat(parts.digest()).isEqualTo(Sha256.of("abc".getBytes(StandardCharsets.US_ASCII)));
    }
}
