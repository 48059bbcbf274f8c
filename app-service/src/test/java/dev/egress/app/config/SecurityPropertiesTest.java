package dev.egress.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
        assertThat(security.internalToken()).isEqualTo("internal-1");
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
        assertThatThrownBy(() -> bind(Map.of(
                        "egress.security.internal-token-file",
                        dir.resolve("missing").toString())))
                .hasStackTraceContaining("egress.security.internal-token-file");
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
    }

    private static String stackOf(Throwable e) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            all.append(t.getMessage()).append('\n');
        }
        return all.toString();
    }
}
