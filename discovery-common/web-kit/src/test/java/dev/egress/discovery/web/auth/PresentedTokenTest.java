package dev.egress.discovery.web.auth;

import static org.assertj.core.api.Assertions.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.InstanceOfAssertFactories.STRING;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PresentedTokenTest {

    @TempDir
    Path dir;

    private final AtomicLong nanos = new AtomicLong();

    @Test
    void presentsTheConfiguredTokenOrNothing() {
        assertThat(PresentedToken.of("p", " inline \n", "p-file", "").authorization())
                .contains("Bearer inline");
        assertThat(PresentedToken.of("p", "", "p-file", null).authorization()).isEmpty();
        assertThat(PresentedToken.of("p", null, "p-file", " ").revoked()).isFalse();
    }

    @Test
    void readsTheOneTokenOfItsFileInTheTokenFileFormat() throws Exception {
        Path file = Files.writeString(dir.resolve("internal-token"), "# presented by App\n  current \n\n");
        assertThat(PresentedToken.of("p", "", "p-file", " " + file + " ").authorization())
                .contains("Bearer current");
    }

    @Test
    void picksUpANewTokenWithoutARestart() throws Exception {
        Path file = Files.writeString(dir.resolve("internal-token"), "old\n");
        PresentedToken token = PresentedToken.file(file, "p-file", nanos::get);

        rewrite(file, "new\n", 5);
        assertThat(token.authorization()).as("not before RECHECK").contains("Bearer old");
        nanos.addAndGet(TokenSource.RECHECK.toNanos());
        assertThat(token.authorization()).contains("Bearer new");
    }

    @Test
    void anEmptiedVanishedOrAmbiguousFilePresentsNothingUntilItHoldsOneTokenAgain() throws Exception {
        Path file = Files.writeString(dir.resolve("internal-token"), "old\n");
        PresentedToken token = PresentedToken.file(file, "p-file", nanos::get);

        rewrite(file, "\n", 5);
        nanos.addAndGet(TokenSource.RECHECK.toNanos());
        assertThat(token.authorization()).as("emptied").isEmpty();
        assertThat(token.revoked()).isTrue();

        rewrite(file, "old\nnew\n", 10);
        nanos.addAndGet(TokenSource.RECHECK.toNanos());
        assertThat(token.authorization())
                .as("two tokens: which one is meant is unknown")
                .isEmpty();
        assertThat(token.revoked()).isTrue();

        Files.delete(file);
        nanos.addAndGet(TokenSource.RECHECK.toNanos());
        assertThat(token.authorization()).as("vanished").isEmpty();

        rewrite(file, "new\n", 15);
        nanos.addAndGet(TokenSource.RECHECK.toNanos());
        assertThat(token.authorization()).contains("Bearer new");
        assertThat(token.revoked()).isFalse();
    }

    @Test
    void anAmbiguousFileIsLoggedAtErrorWithoutItsContent() throws Exception {
        Path file = Files.writeString(dir.resolve("internal-token"), "s3cret-a\ns3cret-b\n");
        try (LogCapture logs = LogCapture.of(TokenFile.class)) {
            PresentedToken token = PresentedToken.file(file, "egress.p-file", nanos::get);

            assertThat(token.authorization()).isEmpty();
            assertThat(logs.errors())
                    .singleElement(as(STRING))
                    .contains("egress.p-file", "holds 2 tokens", "no token is presented")
                    .doesNotContain("s3cret");
        }
    }

    @Test
    void refusesAnUnreadableFileAtStartAndATokenGivenTwice() throws Exception {
        assertThatThrownBy(() -> PresentedToken.of(
                        "p", "", "egress.p-file", dir.resolve("missing").toString()))
                .hasMessageContaining("egress.p-file")
                .hasMessageContaining("missing");
        Path file = Files.writeString(dir.resolve("t"), "a\n");
        assertThatThrownBy(() -> PresentedToken.of("egress.p", "b", "egress.p-file", file.toString()))
                .hasMessageContaining("egress.p and egress.p-file");
    }

    @Test
    void registersTheRevocationGaugeOnlyForAFile() throws Exception {
        Path file = Files.writeString(dir.resolve("internal-token"), "t\n");
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        PresentedToken.of("p", "inline", "p-file", "").register(meters);
        assertThat(meters.getMeters()).isEmpty();
        PresentedToken token = PresentedToken.file(file, "p-file", nanos::get);
        token.register(meters);
        assertThat(meters.get("egress.security.token.file.revoked")
                        .tag("file", file.toString())
                        .gauge()
                        .value())
                .isZero();
    }

    @Test
    void neverPrintsTheToken() throws Exception {
        Path file = Files.writeString(dir.resolve("internal-token"), "s3cret\n");
        assertThat(PresentedToken.of("p", "s3cret", "p-file", "").toString()).isEqualTo("PresentedToken[<redacted>]");
        assertThat(PresentedToken.of("p", "", "p-file", "").toString()).isEqualTo("PresentedToken[<unset>]");
        assertThat(PresentedToken.file(file, "p-file", nanos::get).toString())
                .isEqualTo("PresentedToken[file " + file + "]");
    }

    private static void rewrite(Path file, String content, int secondsAhead) throws Exception {
        Files.writeString(file, content);
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(secondsAhead)));
    }
}
