package dev.egress.border;

import dev.egress.discovery.web.auth.TokenSource;
import java.util.Collections;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Bearer tokens ({@code egress.security.*}). The Border is not an open proxy: without an internal
 * token it refuses to start unless {@code insecure-local} is set explicitly. Each token may instead
 * come from a token file (a mounted Secret), one token per line, re-read when it changes; an emptied file
 * refuses every call (see {@link TokenSource}). The internal tokens are the list the Border accepts, kept
 * apart from the one token App presents, so a rollover lists old and new here first.
 *
 * @param internalToken     App's token for {@code POST /internal/v1/egress}
 * @param internalTokenFile file with the internal tokens the Border accepts (old and new during a rollover),
 *                          instead of {@code internalToken}
 * @param operatorToken     the token for {@code /ops/**} and non-probe actuator endpoints; when absent
 *                          those answer 401 (unless {@code insecure-local})
 * @param operatorTokenFile file holding the operator token(s), instead of {@code operatorToken}
 * @param insecureLocal     allow running without tokens (local development only): missing tokens mean
 *                          no authentication on the corresponding endpoints; also allows a registry
 *                          token over plaintext {@code grpc://}
 */
@Validated
@ConfigurationProperties("egress.security")
public record SecurityProperties(
        String internalToken,
        String internalTokenFile,
        String operatorToken,
        String operatorTokenFile,
        @DefaultValue("false") boolean insecureLocal) {

    /** Refuses a configuration that would make the Border an open proxy. */
    public SecurityProperties {
        internalToken = blankToNull(internalToken);
        internalTokenFile = blankToNull(internalTokenFile);
        operatorToken = blankToNull(operatorToken);
        operatorTokenFile = blankToNull(operatorTokenFile);
        if (internalToken == null && internalTokenFile == null && !insecureLocal) {
            throw new IllegalArgumentException(
                    "egress.security.internal-token: not set (expected: a token, "
                            + "or egress.security.internal-token-file; or egress.security.insecure-local=true for local runs only)");
        }
    }

    /**
     * The internal tokens, from the property or the file.
     *
     * @return the source (empty only with {@code insecure-local})
     * @throws IllegalArgumentException if both are set or the file cannot be read
     */
    public TokenSource internalTokens() {
        return TokenSource.of(
                "egress.security.internal-token",
                Collections.singletonList(internalToken),
                "egress.security.internal-token-file",
                internalTokenFile);
    }

    /**
     * The operator tokens, from the property or the file.
     *
     * @return the source (may be empty)
     * @throws IllegalArgumentException if both are set or the file cannot be read
     */
    public TokenSource operatorTokens() {
        return TokenSource.of(
                "egress.security.operator-token",
                Collections.singletonList(operatorToken),
                "egress.security.operator-token-file",
                operatorTokenFile);
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }

    /** Never prints the tokens. */
    @Override
    public String toString() {
        return "SecurityProperties[internalToken=%s, operatorToken=%s, insecureLocal=%s]"
                .formatted(
                        describe(internalToken, internalTokenFile),
                        describe(operatorToken, operatorTokenFile),
                        insecureLocal);
    }

    private static String describe(String token, String file) {
        return token != null ? "<set>" : file != null ? "file " + file : "<none>";
    }
}
