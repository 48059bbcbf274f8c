package dev.egress.border.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Bearer tokens ({@code egress.security.*}). The Border is not an open proxy: without an internal
 * token it refuses to start unless {@code insecure-local} is set explicitly.
 *
 * @param internalToken App's token for {@code POST /internal/v1/egress}
 * @param operatorToken the token for {@code /ops/**} and non-probe actuator endpoints; when absent
 *                      those answer 401 (unless {@code insecure-local})
 * @param insecureLocal allow running without tokens (local development only): missing tokens mean
 *                      no authentication on the corresponding endpoints
 */
@Validated
@ConfigurationProperties("egress.security")
public record SecurityProperties(String internalToken, String operatorToken, @DefaultValue("false") boolean insecureLocal) {

    /** Refuses a configuration that would make the Border an open proxy. */
    public SecurityProperties {
        internalToken = blankToNull(internalToken);
        operatorToken = blankToNull(operatorToken);
        if (internalToken == null && !insecureLocal) {
            throw new IllegalArgumentException("egress.security.internal-token: not set (expected: a token; "
                    + "or egress.security.insecure-local=true for local runs only)");
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }

    /** Never prints the tokens. */
    @Override
    public String toString() {
        return "SecurityProperties[internalToken=%s, operatorToken=%s, insecureLocal=%s]"
                .formatted(internalToken == null ? "<none>" : "<set>", operatorToken == null ? "<none>" : "<set>", insecureLocal);
    }
}
