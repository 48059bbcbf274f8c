package dev.egress.discovery.web.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class BearerTokensTest {

    private final BearerTokens tokens = BearerTokens.of(List.of("first-token", "second-token"));

    @Test
    void matchesEachConfiguredToken() {
        assertThat(tokens.matches("Bearer first-token")).isTrue();
        assertThat(tokens.matches("Bearer second-token")).isTrue();
        assertThat(tokens.matches("bearer second-token  "))
                .as("scheme is case-insensitive, whitespace stripped")
                .isTrue();
    }

    @Test
    void rejectsMissingWrongAndMalformedHeaders() {
        assertThat(tokens.matches((String) null)).isFalse();
        assertThat(tokens.matches("")).isFalse();
        assertThat(tokens.matches("Bearer ")).isFalse();
        assertThat(tokens.matches("Bearer first-token-but-longer")).isFalse();
        assertThat(tokens.matches("Basic first-token")).isFalse();
        assertThat(tokens.matches("first-token")).isFalse();
        assertThat(tokens.matches("Bearerfirst-token")).isFalse();
        assertThat(tokens.matches("Bearer third-token")).isFalse();
        assertThat(tokens.matches((TokenDigest) null)).isFalse();
    }

    @Test
    void blankOrMissingTokensAreNeverAccepted() {
        BearerTokens none = BearerTokens.of(Arrays.asList(null, "", "  "));
        assertThat(none.isEmpty()).isTrue();
        assertThat(none.size()).isZero();
        assertThat(none.matches("Bearer ")).isFalse();
        assertThat(none.matches("Bearer   ")).isFalse();
        assertThat(BearerTokens.none().isEmpty()).isTrue();
    }

    @Test
    void acceptsEveryConfiguredTokenIncludingTheFirstAndTheLast() {
        assertThat(tokens.isEmpty()).isFalse();
        assertThat(tokens.size()).isEqualTo(2);
        assertThat(tokens.matches(TokenDigest.of("first-token"))).isTrue();
        assertThat(tokens.matches(TokenDigest.of("second-token"))).isTrue();
        assertThat(BearerTokens.of(List.of("only")).matches(TokenDigest.of("only")))
                .isTrue();
    }

    @Test
    void onePresentedDigestIsCheckedAgainstSeveralListsWithoutHashingAgain() {
        TokenDigest presented = TokenDigest.ofAuthorization("Bearer second-token");
        BearerTokens other = BearerTokens.of(List.of("other"));

        assertThat(other.matches(presented)).isFalse();
        assertThat(tokens.matches(presented)).isTrue();
    }

    @Test
    void configuredTokensAreTrimmedOfSurroundingWhitespace() {
        assertThat(BearerTokens.of(List.of("  padded \n")).matches("Bearer padded"))
                .isTrue();
    }

    @Test
    void neverPrintsTheSecrets() {
        assertThat(tokens.toString())
                .doesNotContain("first-token")
                .doesNotContain("second-token")
                .isEqualTo("BearerTokens[2 configured]");
    }
}
