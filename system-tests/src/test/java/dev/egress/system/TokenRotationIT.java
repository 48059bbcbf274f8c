package dev.egress.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.discovery.web.testing.RecordingSink;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The internal token rolls over without an outage and without a restart, on real processes: App presents
 * one token from its file, the Border accepts the list in its own file. Accept old and new on the Border,
 * switch App's file to the new one, drop the old: every delivery in between goes through, and once the
 * Border dropped it the old token is refused at its door. An emptied presented-token file revokes: App
 * presents nothing and says so in its gauge.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TokenRotationIT {

    private static final String OLD = "internal-token-old";
    private static final String NEW = "internal-token-new";

    private Path presented;
    private Path accepted;
    private Platform platform;
    private RecordingSink sink;
    private int delivered;

    @BeforeAll
    void startSystem() throws Exception {
        Path dir = Files.createTempDirectory("token-rotation");
        presented = Files.writeString(dir.resolve("internal-token"), OLD + "\n");
        accepted = Files.writeString(dir.resolve("accepted-internal-tokens"), OLD + "\n");
        sink = RecordingSink.start();
        platform = Platform.start(new Platform.Layout(
                Map.of("border-a", List.of("127.0.0.2")),
                """
                sharedPool: [127.0.0.2]
                tenants:
                  - id: small-co
                """,
                1,
                List.of("--egress.security.internal-token-file=" + accepted),
                List.of("--egress.security.internal-token-file=" + presented)));
    }

    @AfterAll
    void stopSystem() {
        if (platform != null) {
            platform.close();
        }
        if (sink != null) {
            sink.close();
        }
    }

    @Test
    void theInternalTokenRollsOverWithoutARestartAndTheDroppedTokenIsRefused() throws IOException {
        sink.clear();
        delivered = 0;
        ServiceProcess app = platform.apps.get(0);
        int starts = occurrences(app.logText(), "Started AppApplication");
        deliverOk("before the rollover");

        // 1. The Border accepts old and new; App still presents the old one.
        replace(accepted, "# rollover in progress\n" + OLD + "\n" + NEW + "\n");
        await("the Border accepts the new token").atMost(Duration.ofSeconds(20)).until(() -> borderAnswers(NEW) != 401);
        deliverOk("while the Border accepts both");

        // 2. App switches to the new one: read again on a later call, no restart. Every delivery goes through.
        String reread = "egress.security.internal-token-file: re-read " + presented;
        int rereads = occurrences(app.logText(), reread);
        replace(presented, NEW + "\n");
        await("App re-read its token file").atMost(Duration.ofSeconds(20)).until(() -> {
            deliverOk("while App switches");
            return occurrences(app.logText(), reread) > rereads;
        });

        // 3. The Border drops the old one: deliveries go through only because App presents the new token.
        replace(accepted, NEW + "\n");
        await("the Border refuses the old token").atMost(Duration.ofSeconds(20)).until(() -> borderAnswers(OLD) == 401);
        for (int i = 0; i < 5; i++) {
            deliverOk("after the old token was dropped");
        }
        assertThat(borderAnswers(NEW)).isNotEqualTo(401);
        assertThat(app.isAlive()).isTrue();
        assertThat(occurrences(app.logText(), "Started AppApplication"))
                .as("App was not restarted")
                .isEqualTo(starts);
        assertThat(app.logText()).doesNotContain(OLD).doesNotContain(NEW);
        assertThat(sink.received()).hasSize(delivered);
    }

    @Test
    void anEmptiedPresentedTokenFileStopsAppPresentingAnyTokenLoudly() throws IOException {
        String current = Files.readString(presented);
        try {
            replace(presented, "# revoked\n");
            await("App presents nothing")
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> deliver().status() != 200);
            assertThat(platform.http
                            .get(platform.appUri(0, "/actuator/prometheus"), null)
                            .text()
                            .lines())
                    .filteredOn(line -> line.startsWith("egress_security_token_file_revoked{")
                            && line.contains("property=\"egress.security.internal-token-file\""))
                    .singleElement()
                    .satisfies(line ->
                            assertThat(line).contains(presented.toString()).endsWith(" 1.0"));
            assertThat(platform.apps.get(0).logText())
                    .contains("egress.security.internal-token-file: " + presented + " holds no token: revoked")
                    .doesNotContain(OLD)
                    .doesNotContain(NEW);
        } finally {
            replace(presented, current);
        }
        await("App presents its token again")
                .atMost(Duration.ofSeconds(20))
                .until(() -> deliver().status() == 200);
    }

    private static int occurrences(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            count++;
        }
        return count;
    }

    private void deliverOk(String when) {
        assertThat(deliver().status()).as("delivery %s", when).isEqualTo(200);
        delivered++;
    }

    private Http.Response deliver() {
        return platform.http.post(
                platform.appUri(0, "/v1/deliveries"),
                Platform.API_TOKEN,
                "{\"tenantId\":\"small-co\",\"url\":\"" + sink.baseUri() + "/hook\",\"payload\":{\"n\":1}}");
    }

    /** The Border's answer to a forward call with this token (the test's client holds an App certificate). */
    private int borderAnswers(String token) {
        return platform.http
                .post(platform.borderUri("border-a", "/internal/v1/egress"), token, "{}")
                .status();
    }

    /** Swaps a token file atomically, as kubelet swaps a Secret volume's files. */
    private static void replace(Path file, String content) throws IOException {
        Path tmp = Files.writeString(file.resolveSibling(file.getFileName() + ".tmp"), content);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
