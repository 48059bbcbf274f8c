package dev.egress.discovery.web.auth;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class CanonicalPathTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/",
                "/internal/v1/egress",
                "/internal/v1/egress/",
                "/ops/v1/ips/%3A%3A1",
                "/ops/v1/ips/::1",
                "/ops/",
                "/v1/tenants/acme/egress",
                "/actuator/health/liveness",
                "/a%20b",
                "/file.name",
                "/..a",
                "/a..",
                "/a%3a%3A",
                "/%3A",
                "/a/%3A",
                "/a%3a"
            })
    void acceptsPathsWithOneSpelling(String path) {
        assertThat(CanonicalPath.problem(path)).isNull();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "internal",
                "/internal;x/v1/egress",
                "/internal/v1/egress;x",
                "/%69nternal/v1/egress",
                "/%49nternal",
                "/internal%2Fv1/egress",
                "/internal%2fv1",
                "//internal/v1/egress",
                "/internal//v1",
                "/./internal",
                "/x/../internal",
                "/internal/.",
                "/internal/..",
                "/%2E/internal",
                "/%2e%2e/internal",
                "/a%3Bb",
                "/a%25b",
                "/a%5Cb",
                "/a\\b",
                "/a%00b",
                "/a%7Fb",
                "/a%",
                "/a%4",
                "/a%zz",
                "/a b",
                "/caf\u00e9",
                "/a%7E",
                "/a%2D",
                "/a%5F"
            })
    void refusesPathsWithMoreThanOneSpelling(String path) {
        assertThat(CanonicalPath.problem(path)).isNotNull();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "''                  | path must start with '/'",
                "internal            | path must start with '/'",
                "//a                 | empty path segment ('//')",
                "/a//b               | empty path segment ('//')",
                "/./a                | dot segment ('/./' or '/../')",
                "/a/..               | dot segment ('/./' or '/../')",
                "/a;b                | path parameter (';')",
                "/a\\b               | character outside visible ASCII or a backslash",
                "/a%                 | malformed percent escape",
                "/a%4                | malformed percent escape",
                "/a%4g               | malformed percent escape",
                "/a%g4               | malformed percent escape",
                "/%69nternal         | percent escape of a character with a plain spelling or a path delimiter (%69)",
                "/a%2fb              | percent escape of a character with a plain spelling or a path delimiter (%2f)"
            })
    void namesWhatIsWrongWithAPath(String path, String reason) {
        assertThat(CanonicalPath.problem(path)).isEqualTo(reason);
    }

    /** Every byte, raw: visible ASCII but the backslash and ';' is one spelling of itself; the rest is refused. */
    @Test
    void acceptsExactlyTheVisibleAsciiCharactersRaw() {
        for (char c = 0; c < 0x100; c++) {
            String path = "/a" + c + "b";
            boolean plain = c > 0x20 && c < 0x7f && c != '\\' && c != ';' && c != '%' && c != '/';
            if (plain) {
                assertThat(CanonicalPath.problem(path))
                        .as("raw 0x%02x", (int) c)
                        .isNull();
            } else if (c != '/' && c != '%') {
                assertThat(CanonicalPath.problem(path))
                        .as("raw 0x%02x", (int) c)
                        .isNotNull();
            }
        }
    }

    /**
     * Every escape {@code %00}..{@code %FF}, in both cases of hex digit: refused exactly when the byte has a plain
     * spelling (letters, digits, {@code -._~}), is a delimiter ({@code / \ ; %}) or a control character.
     */
    @Test
    void refusesExactlyTheEscapesOfPlainCharactersDelimitersAndControls() {
        for (int b = 0; b < 0x100; b++) {
            boolean unreserved = Character.isLetterOrDigit(b) && b < 0x80 || "-._~".indexOf(b) >= 0;
            boolean refused = unreserved || "/\\;%".indexOf(b) >= 0 || b < 0x20 || b == 0x7f;
            for (String hex : new String[] {"%02X".formatted(b), "%02x".formatted(b)}) {
                String path = "/seg" + "%" + hex + "x";
                if (refused) {
                    assertThat(CanonicalPath.problem(path))
                            .as(path)
                            .isEqualTo("percent escape of a character with a plain spelling or a path delimiter (%"
                                    + hex + ")");
                } else {
                    assertThat(CanonicalPath.problem(path)).as(path).isNull();
                }
            }
        }
    }

    @Test
    void readsAnEscapeAtTheVeryEndOfThePath() {
        assertThat(CanonicalPath.problem("/ops/v1/ips/%3A")).isNull();
        assertThat(CanonicalPath.problem("/ops/v1/ips/%41")).isNotNull();
        assertThat(CanonicalPath.problem("/%3A/%41"))
                .as("the escape is skipped, the next segment still read")
                .isNotNull();
        assertThat(CanonicalPath.problem("/%3A;"))
                .as("the character after an escape is still read")
                .isNotNull();
    }
}
