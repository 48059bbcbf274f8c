package dev.egress.discovery.web.auth;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The one token file format. */
class TokenFileTest {

    @Test
    void oneTokenPerLineTrimmedWithoutBlankAndCommentLines() {
        assertThat(TokenFile.parse("# rotated 2026-12-01\nold\r\n\n   \n  new \t\n#retired\n"))
                .containsExactly("old", "new");
    }

    @Test
    void aCommaListIsOneTokenNotTwo() {
        // What the chart used to write: a token containing a comma is taken whole, never split.
        assertThat(TokenFile.parse("a,b\n")).containsExactly("a,b");
    }

    @Test
    void aHashInsideATokenIsPartOfIt() {
        assertThat(TokenFile.parse("to#ken\n # comment\n")).containsExactly("to#ken");
    }

    @Test
    void nothingButCommentsAndBlanksHoldsNoToken() {
        assertThat(TokenFile.parse("")).isEmpty();
        assertThat(TokenFile.parse("\n# only a comment\n\n")).isEmpty();
    }
}
