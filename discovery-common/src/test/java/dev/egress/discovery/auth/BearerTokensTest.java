package dev.egress.discovery.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class BearerTokensTest {

    private final BearerTokens tokens = BearerTokens.of(List.of("first-token", "second-token"));

    @Test
    void matchesEachConfiguredTokenByItsIndex() {
        assertThat(tokens.match("Bearer first-token")).isZero();
        assertThat(tokens.match("Bearer second-token")).isEqualTo(1);
        assertThat(tokens.match("bearer second-token  "))
                .as("scheme is case-insensitive, whitespace stripped")
                .isEqualTo(1);
    }

    @Test
    void rejectsMissingWrongAndMalformedHeaders() {
        assertThat(tokens.match(null)).isEqualTo(-1);
        assertThat(tokens.match("")).isEqualTo(-1);
        assertThat(tokens.match("Bearer ")).isEqualTo(-1);
        assertThat(tokens.match("Bearer first-token-but-longer")).isEqualTo(-1);
        assertThat(tokens.match("Basic first-token")).isEqualTo(-1);
        assertThat(tokens.match("first-token")).isEqualTo(-1);
        assertThat(tokens.matches("Bearer third-token")).isFalse();
    }

    @Test
    void blankOrMissingTokensAreNeverAccepted() {
        BearerTokens none = BearerTokens.of(Arrays.asList(null, "", "  "));
        assertThat(none.isEmpty()).isTrue();
        assertThat(none.matches("Bearer ")).isFalse();
        assertThat(none.matches("Bearer   ")).isFalse();
    }

    @Test
    void acceptsEveryConfiguredTokenIncludingTheFirst() {
        assertThat(tokens.isEmpty()).isFalse();
        assertThat(tokens.matches("Bearer first-token")).isTrue();
        assertThat(tokens.matches("Bearer second-token")).isTrue();
    }

    @Test
    void aTokenConfiguredTwiceMatchesItsFirstPosition() {
        BearerTokens repeated = BearerTokens.of(List.of("old", "new", "old"));

        assertThat(repeated.match("Bearer old")).isZero();
        assertThat(repeated.match("Bearer new")).isEqualTo(1);
    }

    @Test
    void neverPrintsTheSecrets() {
        assertThat(tokens.toString())
                .doesNotContain("first-token")
                .doesNotContain("second-token")
                .isEqualTo("BearerTokens[2 configured]");
    }
}
