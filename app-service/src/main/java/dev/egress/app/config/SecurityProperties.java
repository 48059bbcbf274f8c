package dev.egress.app.config;

import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Secrets of the App. All are bearer tokens: {@link #toString()} never shows them.
 *
 * @param apiTokens     tokens accepted on the public API ({@code egress.security.api-tokens}, comma list);
 *                      none configured means every authenticated endpoint answers 401
 * @param internalToken token App presents to Borders ({@code egress.security.internal-token})
 * @param operatorToken token for the operator API {@code /ops/v1/**} ({@code egress.security.operator-token});
 *                      unset means the operator API answers 401 (the page at {@code /ops/} still loads)
 */
@Validated
@ConfigurationProperties("egress.security")
public record SecurityProperties(@DefaultValue List<String> apiTokens, @DefaultValue("") String internalToken,
                                 @DefaultValue("") String operatorToken) {

    /** Drops blank entries (a trailing comma must not create an empty, always-matching token). */
    public SecurityProperties {
        apiTokens = apiTokens == null ? List.of()
                : apiTokens.stream().map(String::trim).filter(t -> !t.isEmpty()).toList();
        internalToken = internalToken == null ? "" : internalToken.trim();
        operatorToken = operatorToken == null ? "" : operatorToken.trim();
    }

    @Override
    public String toString() {
        return "SecurityProperties{apiTokens=[%d redacted], internalToken=%s, operatorToken=%s}"
                .formatted(apiTokens.size(), redacted(internalToken), redacted(operatorToken));
    }

    private static String redacted(String token) {
        return token.isEmpty() ? "<unset>" : "<redacted>";
    }
}
