package dev.egress.discovery.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TokenSourceTest {

    @TempDir
    Path dir;

    @Test
    void readsOneTokenPerLineTrimmedOfLineEnds() throws Exception {
        Path file = Files.writeString(dir.resolve("tokens"), "first\r\n\n  second  \n");
        BearerTokens tokens =
                TokenSource.of("p", List.of(), "p-file", file.toString()).current();
        assertThat(tokens.size()).isEqualTo(2);
        assertThat(tokens.matches("Bearer first")).isTrue();
        assertThat(tokens.matches("Bearer second")).isTrue();
        assertThat(tokens.matches("Bearer first\r")).isTrue(); // the header value is stripped too
    }

    @Test
    void picksUpARotatedFileWithoutARestartAndKeepsTheLastTokensWhenItBreaks() throws Exception {
        Path file = Files.writeString(dir.resolve("tokens"), "old\n");
        AtomicLong nanos = new AtomicLong();
        TokenSource source = TokenSource.file(file, "p-file", nanos::get);
        assertThat(source.current().matches("Bearer old")).isTrue();

        Files.writeString(file, "old\nnew\n");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));
        assertThat(source.current().matches("Bearer new"))
                .as("not re-checked before RECHECK")
                .isFalse();
        nanos.addAndGet(TokenSource.RECHECK.toNanos());
        assertThat(source.current().matches("Bearer new")).isTrue();
        assertThat(source.current().matches("Bearer old")).isTrue();

        Files.delete(file);
        nanos.addAndGet(TokenSource.RECHECK.toNanos());
        assertThat(source.current().matches("Bearer new"))
                .as("kept after the file vanished")
                .isTrue();

        Files.writeString(file, "\n");
        nanos.addAndGet(TokenSource.RECHECK.toNanos());
        assertThat(source.current().matches("Bearer new"))
                .as("kept when the file holds no token")
                .isTrue();
    }

    @Test
    void refusesAMissingOrEmptyFileAndATokenGivenTwiceNamingTheProperty() throws Exception {
        assertThatThrownBy(() -> TokenSource.of(
                        "t", List.of(), "egress.x-file", dir.resolve("missing").toString()))
                .hasMessageContaining("egress.x-file")
                .hasMessageContaining("missing");
        Path empty = Files.writeString(dir.resolve("empty"), "\n");
        assertThatThrownBy(() -> TokenSource.of("t", List.of(), "egress.x-file", empty.toString()))
                .hasMessageContaining("egress.x-file")
                .hasMessageContaining("no token");
        Path file = Files.writeString(dir.resolve("t"), "a\n");
        assertThatThrownBy(() -> TokenSource.of("egress.x", List.of("b"), "egress.x-file", file.toString()))
                .hasMessageContaining("egress.x and egress.x-file");
    }

    @Test
    void readsASingleSecretTrimmedOfItsTrailingNewline() throws Exception {
        Path file = Files.writeString(dir.resolve("secret"), "s3cret\n");
        assertThat(TokenSource.readSecret("p", file.toString())).isEqualTo("s3cret");
        Path two = Files.writeString(dir.resolve("two"), "a\nb\n");
        assertThatThrownBy(() -> TokenSource.readSecret("egress.p", two.toString()))
                .hasMessageContaining("egress.p")
                .hasMessageNotContaining("a\nb");
    }

    @Test
    void neverPrintsTokens() throws Exception {
        Path file = Files.writeString(dir.resolve("tokens"), "s3cret\n");
        assertThat(TokenSource.of("p", List.of(), "p-file", file.toString()).toString())
                .doesNotContain("s3cret");
        assertThat(TokenSource.fixed(List.of("s3cret")).toString()).doesNotContain("s3cret");
    }

    @Test
    void checksTheFileOnlyOncePerIntervalFromTheFirstReadOn() throws Exception {
        Path file = Files.writeString(dir.resolve("tokens"), "old\n");
        AtomicLong nanos = new AtomicLong();
        TokenSource source = TokenSource.file(file, "p-file", nanos::get);
        Files.writeString(file, "old\nnew\n");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));
        assertThat(source.current().matches("Bearer new"))
                .as("first interval: the file read at start holds")
                .isFalse();

        nanos.addAndGet(TokenSource.RECHECK.toNanos());
        assertThat(source.current().matches("Bearer new")).isTrue();
        Files.writeString(file, "other\n");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(10)));
        assertThat(source.current().matches("Bearer other"))
                .as("checked just now: not again before RECHECK")
                .isFalse();
        nanos.addAndGet(TokenSource.RECHECK.toNanos() - 1);
        assertThat(source.current().matches("Bearer other")).isFalse();
        nanos.addAndGet(1);
        assertThat(source.current().matches("Bearer other")).isTrue();
    }

    @Test
    void seesARewriteOfTheSameSizeByItsModificationTime() throws Exception {
        Path file = Files.writeString(dir.resolve("tokens"), "aaaa\n");
        AtomicLong nanos = new AtomicLong();
        TokenSource source = TokenSource.file(file, "p-file", nanos::get);
        Files.writeString(file, "bbbb\n");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));
        nanos.addAndGet(TokenSource.RECHECK.toNanos());
        assertThat(source.current().matches("Bearer bbbb")).isTrue();
        assertThat(source.current().matches("Bearer aaaa")).isFalse();
    }

    @Test
    void usesTheInlineTokensWhenNoFileIsNamedAndIgnoresBlankInlineEntriesBesideAFile() throws Exception {
        assertThat(TokenSource.of("p", List.of("inline"), "p-file", null)
                        .current()
                        .matches("Bearer inline"))
                .isTrue();
        assertThat(TokenSource.of("p", List.of("inline"), "p-file", "  ")
                        .current()
                        .matches("Bearer inline"))
                .isTrue();
        Path file = Files.writeString(dir.resolve("tokens"), "from-file\n");
        TokenSource source = TokenSource.of("p", List.of("", " "), "p-file", " " + file + " ");
        assertThat(source.current().matches("Bearer from-file")).isTrue();
    }

    @Test
    void describesItselfByCountOrFileName() throws Exception {
        assertThat(TokenSource.fixed(List.of("a", "b")).toString()).isEqualTo("TokenSource[2 configured]");
        Path file = Files.writeString(dir.resolve("tokens"), "a\n");
        assertThat(TokenSource.file(file, "p-file", System::nanoTime).toString())
                .isEqualTo("TokenSource[file " + file + "]");
    }
}
