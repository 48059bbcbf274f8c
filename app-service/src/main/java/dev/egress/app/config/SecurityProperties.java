package dev.egress.app.config;

import dev.egress.discovery.web.auth.PresentedToken;
import dev.egress.discovery.web.auth.TokenSource;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Secrets of the App. All are bearer tokens: {@link #toString()} never shows them. Each may come from a
 * token file instead (a mounted Secret; one token per line, {@code #} comments, see {@link TokenSource}),
 * read again when it changes, without a restart: the lists a door accepts ({@code api-tokens-file},
 * {@code tenant-api-token-files.<tenantId>}, {@code operator-token-file}) and the one token App presents to
 * Borders ({@code internal-token-file}, {@link PresentedToken}; the Borders accept a list of their own, so
 * a rollover accepts old and new there first). An emptied file revokes what it held.
 *
 * @param apiTokens         tokens accepted on the public API for every tenant ({@code egress.security.api-tokens},
 *                          comma list); none configured means every API call answers 401
 * @param apiTokensFile     file with API tokens, one per line, instead of {@code apiTokens}
 * @param tenantApiTokens   tokens that may act only for one tenant ({@code egress.security.tenant-api-tokens.<tenantId>});
 *                          used for another tenant they answer 403 {@code tenant-forbidden}
 * @param tenantApiTokenFiles token file per tenant instead ({@code egress.security.tenant-api-token-files.<tenantId>})
 * @param internalToken     token App presents to Borders ({@code egress.security.internal-token})
 * @param internalTokenFile file holding that one token instead, re-read when it changes
 * @param operatorToken     token for the operator API {@code /ops/v1/**} ({@code egress.security.operator-token});
 *                          none configured means it answers 401
 * @param operatorTokenFile file with operator tokens, one per line, instead of {@code operatorToken}
 * @param insecureLocal     local development only ({@code egress.security.insecure-local}): runs without trust
 *                          material (plaintext link to Borders, unsigned announcements accepted) and allows a
 *                          registry token over plaintext {@code grpc://}
 */
@Validated
@ConfigurationProperties("egress.security")
public record SecurityProperties(
        @DefaultValue List<String> apiTokens,
        @DefaultValue("") String apiTokensFile,
        @DefaultValue Map<String, List<String>> tenantApiTokens,
        @DefaultValue Map<String, String> tenantApiTokenFiles,
        @DefaultValue("") String internalToken,
        @DefaultValue("") String internalTokenFile,
        @DefaultValue("") String operatorToken,
        @DefaultValue("") String operatorTokenFile,
        @DefaultValue("false") boolean insecureLocal) {

    /**
     * Drops blank entries (a trailing comma must not create an empty, always-matching token), and refuses a
     * token listed in two scopes and a tenant given both tokens and a token file.
     */
    public SecurityProperties {
        apiTokens = clean(apiTokens);
        apiTokensFile = apiTokensFile == null ? "" : apiTokensFile.strip();
        Map<String, List<String>> tenants = new LinkedHashMap<>();
        (tenantApiTokens == null ? Map.<String, List<String>>of() : tenantApiTokens).forEach((tenant, tokens) -> {
            List<String> cleaned = clean(tokens);
            if (!cleaned.isEmpty()) {
                tenants.put(tenant, cleaned);
            }
        });
        tenantApiTokens = Collections.unmodifiableMap(tenants);
        Map<String, String> files = new LinkedHashMap<>();
        (tenantApiTokenFiles == null ? Map.<String, String>of() : tenantApiTokenFiles).forEach((tenant, file) -> {
            if (file != null && !file.isBlank()) {
                if (tenants.containsKey(tenant)) {
                    throw new IllegalArgumentException(
                            "egress.security.tenant-api-tokens.%s and egress.security.tenant-api-token-files.%s: set one of them, not both"
                                    .formatted(tenant, tenant));
                }
                files.put(tenant, file.strip());
            }
        });
        tenantApiTokenFiles = Collections.unmodifiableMap(files);
        internalToken = internalToken == null ? "" : internalToken.strip();
        internalTokenFile = internalTokenFile == null ? "" : internalTokenFile.strip();
        if (!internalTokenFile.isEmpty() && !internalToken.isEmpty()) {
            throw new IllegalArgumentException(
                    "egress.security.internal-token and egress.security.internal-token-file: set one of them, not both");
        }
        operatorToken = operatorToken == null ? "" : operatorToken.strip();
        operatorTokenFile = operatorTokenFile == null ? "" : operatorTokenFile.strip();
        requireOneScopePerToken(apiTokens, tenantApiTokens);
    }

    private static List<String> clean(List<String> tokens) {
        return tokens == null
                ? List.of()
                : tokens.stream()
                        .filter(t -> t != null)
                        .map(String::strip)
                        .filter(t -> !t.isEmpty())
                        .toList();
    }

    private static void requireOneScopePerToken(List<String> global, Map<String, List<String>> tenants) {
        Map<String, String> scopeOf = new HashMap<>();
        global.forEach(t -> scopeOf.put(t, "egress.security.api-tokens"));
        tenants.forEach((tenant, tokens) -> tokens.forEach(t -> {
            String other = scopeOf.putIfAbsent(t, "egress.security.tenant-api-tokens." + tenant);
            if (other != null) {
                // Never name the token itself.
                throw new IllegalArgumentException(
                        ("egress.security.tenant-api-tokens.%s: a token is also listed in %s "
                                        + "(expected: each token in one scope)")
                                .formatted(tenant, other));
            }
        }));
    }

    /**
     * The API tokens valid for every tenant, from the property or the file.
     *
     * @return the source
     * @throws IllegalArgumentException if both are set or the file cannot be read
     */
    public TokenSource apiTokenSource() {
        return TokenSource.of(
                "egress.security.api-tokens", apiTokens, "egress.security.api-tokens-file", apiTokensFile);
    }

    /**
     * The tenant-bound tokens per tenant, from the properties or the token files, in configuration order.
     *
     * @return tenant id → its source
     * @throws IllegalArgumentException if a file cannot be read
     */
    public Map<String, TokenSource> tenantTokenSources() {
        Map<String, TokenSource> sources = new LinkedHashMap<>();
        tenantApiTokens.forEach((tenant, tokens) -> sources.put(tenant, TokenSource.fixed(tokens)));
        tenantApiTokenFiles.forEach((tenant, file) -> sources.put(
                tenant,
                TokenSource.of(
                        "egress.security.tenant-api-tokens." + tenant,
                        List.of(),
                        "egress.security.tenant-api-token-files." + tenant,
                        file)));
        return Collections.unmodifiableMap(sources);
    }

    /**
     * The token App presents to Borders, from the property or the file (re-read when it changes).
     *
     * @return the token; presents nothing when neither is set
     * @throws IllegalArgumentException if the file cannot be read
     */
    public PresentedToken presentedInternalToken() {
        return PresentedToken.of(
                "egress.security.internal-token",
                internalToken,
                "egress.security.internal-token-file",
                internalTokenFile);
    }

    /**
     * The operator tokens, from the property or the file.
     *
     * @return the source (may be empty)
     * @throws IllegalArgumentException if both are set or the file cannot be read
     */
    public TokenSource operatorTokenSource() {
        return TokenSource.of(
                "egress.security.operator-token",
                Collections.singletonList(operatorToken),
                "egress.security.operator-token-file",
                operatorTokenFile);
    }

    @Override
    public String toString() {
        return ("SecurityProperties{apiTokens=[%d redacted]%s, tenantApiTokens=%s, tenantApiTokenFiles=%s, "
                        + "internalToken=%s, operatorToken=%s, insecureLocal=%s}")
                .formatted(
                        apiTokens.size(),
                        apiTokensFile.isEmpty() ? "" : " + file " + apiTokensFile,
                        tenantApiTokens.keySet().stream()
                                .map(t -> t + "=[" + tenantApiTokens.get(t).size() + " redacted]")
                                .toList(),
                        tenantApiTokenFiles,
                        !internalToken.isEmpty()
                                ? "<redacted>"
                                : internalTokenFile.isEmpty() ? "<unset>" : "file " + internalTokenFile,
                        !operatorToken.isEmpty()
                                ? "<redacted>"
                                : operatorTokenFile.isEmpty() ? "<unset>" : "file " + operatorTokenFile,
                        insecureLocal);
    }
}
