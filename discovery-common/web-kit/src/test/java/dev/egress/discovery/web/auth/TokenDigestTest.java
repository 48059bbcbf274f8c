package dev.egress.discovery.web.auth;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TokenDigestTest {

    @Test
    void isTheSha256OfTheTokenInHex() {
        // sha256("abc"), the FIPS 180-2 test vector.
        assertThat(TokenDigest.of("abc").hex())
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    @Test
    void readsTheBearerTokenOfAnAuthorizationHeader() {
        TokenDigest abc = TokenDigest.of("abc");
        assertThat(TokenDigest.ofAuthorization("Bearer abc").sameAs(abc)).isTrue();
        assertThat(TokenDigest.ofAuthorization("BEARER  abc \t").sameAs(abc)).isTrue();
        assertThat(TokenDigest.ofAuthorization("Bearer abd").sameAs(abc)).isFalse();
        assertThat(TokenDigest.ofAuthorization(null)).isNull();
        assertThat(TokenDigest.ofAuthorization("Bearer")).isNull();
        assertThat(TokenDigest.ofAuthorization("Bearer    ")).isNull();
        assertThat(TokenDigest.ofAuthorization("Basic abc")).isNull();
    }

    @Test
    void neverPrintsTheTokenNorItsDigest() {
        TokenDigest digest = TokenDigest.of("s3cret");
        assertThat(digest.toString()).isEqualTo("TokenDigest[redacted]").doesNotContain(digest.hex());
    }
}
