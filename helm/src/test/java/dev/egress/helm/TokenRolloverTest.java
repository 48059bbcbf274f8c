package dev.egress.helm;

import static dev.egress.helm.Manifests.at;
import static dev.egress.helm.Manifests.env;
import static dev.egress.helm.Manifests.volume;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.egress.discovery.web.auth.PresentedToken;
import dev.egress.discovery.web.auth.TokenSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chart's rendered token Secret, written out as kubelet mounts it (one file per key) and read by the
 * services' own token readers ({@link TokenSource}, {@link PresentedToken}): every key is in the one token
 * file format, and each step of an internal-token rollover keeps App's presented token in the Borders'
 * accepted list.
 */
class TokenRolloverTest {

    private static final String TOKENS = ChartRendering.PREFIX + "-tokens";
    private static final String OLD = "internal-token-old-000001";
    private static final String NEW = "internal-token-new-000001";

    @TempDir
    Path work;

    @Test
    void twoApiTokensAreBothAcceptedByTheTokenReader() throws IOException {
        Path values = Files.writeString(
                work.resolve("api.yaml"), "auth:\n  apiTokens: [api-token-old-0000000001, api-token-new-0000000001]\n");
        Path mounted = mount(ChartRendering.render().values(values));

        TokenSource api = TokenSource.of(
                "egress.security.api-tokens",
                List.of(),
                "egress.security.api-tokens-file",
                mounted.resolve("api-tokens").toString());

        assertThat(api.current().size()).isEqualTo(2);
        assertThat(api.current().matches("Bearer api-token-old-0000000001")).isTrue();
        assertThat(api.current().matches("Bearer api-token-new-0000000001")).isTrue();
    }

    @Test
    void everyStepOfAnInternalTokenRolloverKeepsAppsTokenAcceptedByTheBorders() throws IOException {
        // 1. Borders accept old and new; App still presents the old one.
        Path step1 = rollover("step1", OLD, List.of(OLD, NEW));
        assertThat(presented(step1)).contains("Bearer " + OLD);
        assertThat(accepted(step1).current().matches("Bearer " + OLD)).isTrue();
        assertThat(accepted(step1).current().matches("Bearer " + NEW)).isTrue();

        // 2. App switches to the new one (App re-reads its file; the Borders' list is unchanged).
        Path step2 = rollover("step2", NEW, List.of(OLD, NEW));
        assertThat(presented(step2)).contains("Bearer " + NEW);
        assertThat(accepted(step2).current().matches("Bearer " + NEW)).isTrue();

        // 3. Borders drop the old one.
        Path step3 = rollover("step3", NEW, List.of(NEW));
        assertThat(accepted(step3).current().matches("Bearer " + NEW)).isTrue();
        assertThat(accepted(step3).current().matches("Bearer " + OLD)).isFalse();
    }

    @Test
    void thePresentedAndTheAcceptedInternalTokensAreSeparateKeysMountedOnEachSideOnly() {
        Manifests manifests = ChartRendering.render()
                .example("values-multus.yaml")
                .set("auth.existingSecret", "")
                .manifests();

        assertThat(Manifests.<Map<String, String>>at(manifests.named("Secret", TOKENS), "data"))
                .containsKeys("internal-token", "accepted-internal-tokens");
        assertThat(keys(manifests.app())).contains("internal-token").doesNotContain("accepted-internal-tokens");
        assertThat(env(manifests.app()))
                .containsEntry("EGRESS_SECURITY_INTERNALTOKENFILE", "/etc/egress/tokens/internal-token");
        Map<String, Object> border = manifests.border("border-a");
        assertThat(keys(border)).contains("accepted-internal-tokens").doesNotContain("internal-token");
        assertThat(env(border))
                .containsEntry("EGRESS_SECURITY_INTERNALTOKENFILE", "/etc/egress/tokens/accepted-internal-tokens");
    }

    @Test
    void aListThatDoesNotAcceptTheTokenAppPresentsIsRefusedAtRender() throws IOException {
        Path values = Files.writeString(
                work.resolve("wrong.yaml"),
                "auth:\n  internalToken: " + OLD + "\n  acceptedInternalTokens: [" + NEW + "]\n");

        assertThatThrownBy(ChartRendering.render().values(values)::text)
                .hasMessageContaining("auth.acceptedInternalTokens: must list the token App presents");
    }

    private Path rollover(String step, String presented, List<String> accepted) throws IOException {
        Path values = Files.writeString(
                work.resolve(step + ".yaml"),
                "auth:\n  internalToken: " + presented + "\n  acceptedInternalTokens: " + accepted + "\n");
        return mount(ChartRendering.render().values(values));
    }

    /** Writes the Secret's keys as files, as a Secret volume does. */
    private Path mount(ChartRendering.Render render) throws IOException {
        Map<String, String> data = at(render.manifests().named("Secret", TOKENS), "data");
        Path dir = Files.createDirectories(work.resolve("mount-" + System.nanoTime()));
        for (Map.Entry<String, String> key : data.entrySet()) {
            Files.write(dir.resolve(key.getKey()), Base64.getDecoder().decode(key.getValue()));
        }
        return dir;
    }

    private static Optional<String> presented(Path mounted) {
        return PresentedToken.of(
                        "egress.security.internal-token",
                        "",
                        "egress.security.internal-token-file",
                        mounted.resolve("internal-token").toString())
                .authorization();
    }

    private static TokenSource accepted(Path mounted) {
        return TokenSource.of(
                "egress.security.internal-token",
                List.of(),
                "egress.security.internal-token-file",
                mounted.resolve("accepted-internal-tokens").toString());
    }

    private static List<String> keys(Map<String, Object> workload) {
        return Manifests.<List<Map<String, String>>>at(volume(workload, "tokens"), "secret", "items").stream()
                .map(item -> item.get("key"))
                .toList();
    }
}
