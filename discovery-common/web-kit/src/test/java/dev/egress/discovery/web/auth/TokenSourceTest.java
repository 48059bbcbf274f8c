package dev.egress.discovery.web.auth;

import static org.assertj.core.api.Assertions.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.InstanceOfAssertFactories.STRING;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
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
    void readsOneTokenPerLineTrimmedWithoutBlankAndCommentLines() throws Exception {
        Path file = Files.writeString(dir.resolve("tokens"), "# api tokens\nfirst\r\n\n  second  \n");
        BearerTokens tokens =
                TokenSource.of("p", List.of(), "p-file", file.toString()).current();
        assertThat(tokens.size()).isEqualTo(2);
        assertThat(tokens.matches("Bearer first")).isTrue();
        assertThat(tokens.matches("Bearer second")).isTrue();
        assertThat(tokens.matches("Bearer first\r")).isTrue(); // the header value is stripped too
    }

    @Test
    void registeringTheGaugeAlsoCountsTheFilesReloads() throws Exception {
        Path file = Files.writeString(dir.resolve("tokens"), "old\n");
        AtomicLong nanos = new AtomicLong();
        TokenSource source = TokenSource.file(file, "p-file", nanos::get);
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        source.register(meters);

        Files.writeString(file, "new\n");
        nanos.addAndGet(TokenSource.RECHECK.toNanos());

        assertThat(source.current().matches("Bearer new")).isTrue();
        assertThat(meters.get("egress.file.reloads")
                        .tag("file", "p-file")
                        .tag("outcome", "applied")
                        .counter()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void picksUpARotatedFileWithoutARestart() throws Exception {
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
        assertThat(source.revoked()).isFalse();
    }

    @Test
    void anEmptiedFileRevokesEveryTokenUntilItHoldsTokensAgain() throws Exception {
        Path file = Files.writeString(dir.resolve("tokens"), "old\nnew\n");
        AtomicLong nanos = new AtomicLong();
        TokenSource source = TokenSource.file(file, "p-file", nanos::get);

        Files.writeString(file, "# all revoked\n\n");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));
        nanos.addAndGet(TokenSource.RECHECK.toNanos());
        assertThat(source.current().matches("Bearer new"))
                .as("revoked, fail closed")
                .isFalse();
        assertThat(source.current().matches("Bearer old")).isFalse();
        assertThat(source.revoked()).isTrue();

        Files.writeString(file, "newer\n");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(10)));
        nanos.addAndGet(TokenSource.RECHECK.toNanos());
        assertThat(source.current().matches("Bearer newer")).isTrue();
        assertThat(source.revoked()).isFalse();
    }

    @Test
    void aFileThatVanishesOrCannotBeReadLaterRevokes() throws Exception {
        Path file = Files.writeString(dir.resolve("tokens"), "token\n");
        AtomicLong nanos = new AtomicLong();
        TokenSource source = TokenSource.file(file, "p-file", nanos::get);

        Files.delete(file);
        nanos.addAndGet(TokenSource.RECHECK.toNanos());
        assertThat(source.current().matches("Bearer token"))
                .as("vanished: fail closed")
                .isFalse();
        assertThat(source.revoked()).isTrue();

        Files.createDirectory(file); // exists, but is no readable file
        nanos.addAndGet(TokenSource.RECHECK.toNanos());
        assertThat(source.current().matches("Bearer token")).isFalse();
        assertThat(source.revoked()).isTrue();

        Files.delete(file);
        Files.writeString(file, "token\n");
        nanos.addAndGet(TokenSource.RECHECK.toNanos());
        assertThat(source.current().matches("Bearer token")).isTrue();
        assertThat(source.revoked()).isFalse();
    }

    @Test
    void aFileEmptyAtStartStartsRevokedInsteadOfStoppingTheService() throws Exception {
        Path empty = Files.writeString(dir.resolve("empty"), "# revoked\n");
        TokenSource source = TokenSource.of("t", List.of(), "egress.x-file", empty.toString());
        assertThat(source.revoked()).isTrue();
        assertThat(source.current().isEmpty()).isTrue();
        assertThat(TokenSource.fixed(List.of()).revoked())
                .as("nothing configured is not a revocation")
                .isFalse();
    }

    @Test
    void revocationIsLoggedOnceAtErrorNamingTheFileNeverAToken() throws Exception {
        Path file = Files.writeString(dir.resolve("tokens"), "s3cret-one\n");
        AtomicLong nanos = new AtomicLong();
        TokenSource source = TokenSource.file(file, "egress.x-file", nanos::get);
        try (LogCapture logs = LogCapture.of(TokenFile.class)) {
            Files.writeString(file, "\n");
            Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));
            nanos.addAndGet(TokenSource.RECHECK.toNanos());
            source.current();
            Files.writeString(file, "\n\n");
            Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(10)));
            nanos.addAndGet(TokenSource.RECHECK.toNanos());
            source.current();
            Files.writeString(file, "s3cret-two\n");
            Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(15)));
            nanos.addAndGet(TokenSource.RECHECK.toNanos());
            source.current();

            assertThat(logs.errors())
                    .singleElement(as(STRING))
                    .contains("egress.x-file", file.toString(), "holds no token", "revoked");
            assertThat(logs.all()).hasSize(2).noneMatch(line -> line.contains("s3cret"));
        }
    }

    @Test
    void theRevocationGaugeNamesTheFileAndReChecksOnEveryScrape() throws Exception {
        Path file = Files.writeString(dir.resolve("tokens"), "token\n");
        AtomicLong nanos = new AtomicLong();
        TokenSource source = TokenSource.file(file, "egress.x-file", nanos::get);
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        source.register(meters);
        TokenSource.fixed(List.of("inline")).register(meters);
        Gauge gauge = meters.get("egress.security.token.file.revoked")
                .tag("property", "egress.x-file")
                .tag("file", file.toString())
                .gauge();
        assertThat(meters.getMeters())
                .as("configured tokens have no file to watch")
                .hasSize(1);
        assertThat(gauge.value()).isZero();

        Files.writeString(file, "");
        nanos.addAndGet(TokenSource.RECHECK.toNanos());
        assertThat(gauge.value()).isEqualTo(1.0);
    }

    @Test
    void refusesAMissingFileAndATokenGivenTwiceNamingTheProperty() throws Exception {
        assertThatThrownBy(() -> TokenSource.of(
                        "t", List.of(), "egress.x-file", dir.resolve("missing").toString()))
                .hasMessageContaining("egress.x-file")
                .hasMessageContaining("missing");
        Path file = Files.writeString(dir.resolve("t"), "a\n");
        assertThatThrownBy(() -> TokenSource.of("egress.x", List.of("b"), "egress.x-file", file.toString()))
                .hasMessageContaining("egress.x and egress.x-file");
    }

    @Test
    void neverPrintsTokens() throws Exception {
        Path file = Files.writeString(dir.resolve("tokens"), "s3cret\n");
        assertThat(TokenSource.of("p", List.of(), "p-file", file.toString()).toString())
                .doesNotContain("s3cret");
        assertThat(TokenSource.fixed(List.of("s3cret")).toString()).doesNotContain("s3cret");
        assertThat(TokenSource.fixed(List.of("s3cret")).current().toString()).doesNotContain("s3cret");
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
