package dev.egress.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.egress.discovery.web.auth.TokenSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** How {@code egress.security.*} binds: files, tenant scopes, and secrets kept out of {@code toString()}. */
class SecurityPropertiesTest {

    @TempDir
    Path dir;

    private static SecurityProperties bind(Map<String, String> values) {
        return new Binder(new MapConfigurationPropertySource(values))
                .bindOrCreate("egress.security", SecurityProperties.class);
    }

    @Test
    void defaultsToNoTokensAndNotInsecure() {
        SecurityProperties security = bind(Map.of());
        assertThat(security.apiTokens()).isEmpty();
        assertThat(security.tenantApiTokens()).isEmpty();
        assertThat(security.operatorToken()).isEmpty();
        assertThat(security.insecureLocal()).isFalse();
        assertThat(security.apiTokenSource().current().isEmpty()).isTrue();
        assertThat(security.operatorTokenSource().current().isEmpty()).isTrue();
    }

    @Test
    void bindsTenantBoundTokensPerTenant() {
        SecurityProperties security = bind(Map.of(
                "egress.security.tenant-api-tokens.acme", "a1, a2,", "egress.security.tenant-api-tokens.globex", "g1"));
        assertThat(security.tenantApiTokens())
                .containsEntry("acme", List.of("a1", "a2"))
                .containsEntry("globex", List.of("g1"));
    }

    @Test
    void refusesATokenInTwoScopesWithoutNamingIt() {
        assertThatThrownBy(() -> bind(Map.of(
                        "egress.security.api-tokens",
                        "s3cret-shared",
                        "egress.security.tenant-api-tokens.acme",
                        "s3cret-shared")))
                .hasStackTraceContaining("egress.security.tenant-api-tokens.acme")
                .hasStackTraceContaining("egress.security.api-tokens")
                .satisfies(e -> assertThat(stackOf(e)).doesNotContain("s3cret"));
    }

    @Test
    void readsTokensFromFilesTrimmedOfTheTrailingNewline() throws Exception {
        Path api = Files.writeString(dir.resolve("api"), "api-1\napi-2\n");
        Path operator = Files.writeString(dir.resolve("operator"), "op-1\n");
        Path internal = Files.writeString(dir.resolve("internal"), "internal-1\n");
        SecurityProperties security = bind(Map.of(
                "egress.security.api-tokens-file",
                api.toString(),
                "egress.security.operator-token-file",
                operator.toString(),
                "egress.security.internal-token-file",
                internal.toString()));
        assertThat(security.apiTokenSource().current().matches("Bearer api-2")).isTrue();
        assertThat(security.operatorTokenSource().current().matches("Bearer op-1"))
                .isTrue();
        assertThat(security.presentedInternalToken().authorization()).contains("Bearer internal-1");
    }

    @Test
    void readsTenantBoundTokensFromAFilePerTenant() throws Exception {
        Path acme = Files.writeString(dir.resolve("acme"), "# acme's tokens\nacme-1\nacme-2\n");
        SecurityProperties security = bind(Map.of(
                "egress.security.tenant-api-token-files.acme",
                " " + acme + " ",
                "egress.security.tenant-api-tokens.globex",
                "g1"));
        Map<String, TokenSource> sources = security.tenantTokenSources();
        assertThat(sources).containsOnlyKeys("globex", "acme");
        assertThat(sources.get("acme").current().matches("Bearer acme-2")).isTrue();
        assertThat(sources.get("globex").current().matches("Bearer g1")).isTrue();
        assertThat(security.toString()).contains("acme=" + acme).doesNotContain("acme-1");
    }

    @Test
    void refusesATenantGivenBothTokensAndATokenFile() throws Exception {
        Path acme = Files.writeString(dir.resolve("acme"), "acme-1\n");
        assertThatThrownBy(() -> bind(Map.of(
                        "egress.security.tenant-api-token-files.acme",
                        acme.toString(),
                        "egress.security.tenant-api-tokens.acme",
                        "s3cret")))
                .hasStackTraceContaining(
                        "egress.security.tenant-api-tokens.acme and egress.security.tenant-api-token-files.acme")
                .satisfies(e -> assertThat(stackOf(e)).doesNotContain("s3cret"));
    }

    @Test
    void refusesATokenGivenInlineAndAsAFileOrAnUnreadableFileNamingTheProperty() throws Exception {
        Path internal = Files.writeString(dir.resolve("internal"), "i\n");
        assertThatThrownBy(() -> bind(Map.of(
                        "egress.security.internal-token",
                        "x",
                        "egress.security.internal-token-file",
                        internal.toString())))
                .hasStackTraceContaining("egress.security.internal-token and egress.security.internal-token-file");
        SecurityProperties missing = bind(Map.of(
                "egress.security.internal-token-file", dir.resolve("missing").toString()));
        assertThatThrownBy(missing::presentedInternalToken).hasMessageContaining("egress.security.internal-token-file");
        SecurityProperties both =
                bind(Map.of("egress.security.api-tokens", "x", "egress.security.api-tokens-file", internal.toString()));
        assertThatThrownBy(both::apiTokenSource).hasMessageContaining("egress.security.api-tokens-file");
    }

    @Test
    void neverPrintsTokens() throws Exception {
        Path internal = Files.writeString(dir.resolve("internal"), "s3cret-file\n");
        SecurityProperties security = bind(Map.of(
                "egress.security.api-tokens",
                "s3cret-api",
                "egress.security.tenant-api-tokens.acme",
                "s3cret-acme",
                "egress.security.operator-token",
                "s3cret-op",
                "egress.security.internal-token-file",
                internal.toString()));
        assertThat(security.toString()).doesNotContain("s3cret").contains("acme=[1 redacted]");
        assertThat(security.presentedInternalToken().toString()).doesNotContain("s3cret");
        assertThat(bind(Map.of("egress.security.internal-token", "s3cret-inline"))
                        .toString())
                .doesNotContain("s3cret")
                .contains("internalToken=<redacted>");
    }

    private static String stackOf(Throwable e) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            all.append(t.getMessage()).append('\n');
        }
        return all.toString();
    }
}
