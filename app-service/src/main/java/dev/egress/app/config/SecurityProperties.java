package dev.egress.app.config;

import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Secrets of the App. Both are bearer tokens: {@link #toString()} never shows them.
 *
 * @param apiTokens     tokens accepted on the public API ({@code egress.security.api-tokens}, comma list);
 *                      none configured means every authenticated endpoint answers 401
 * @param internalToken token App presents to Borders ({@code egress.security.internal-token})
 * @param insecureLocal run without trust material ({@code egress.security.insecure-local}): plaintext
 *                      link to Borders, unsigned announcements accepted; local development only
 */
@Validated
@ConfigurationProperties("egress.security")
public record SecurityProperties(@DefaultValue List<String> apiTokens, @DefaultValue("") String internalToken,
                                 @DefaultValue("false") boolean insecureLocal) {

    /** Drops blank entries (a trailing comma must not create an empty, always-matching token). */
    public SecurityProperties {
        apiTokens = apiTokens == null ? List.of()
                : apiTokens.stream().map(String::trim).filter(t -> !t.isEmpty()).toList();
        internalToken = internalToken == null ? "" : internalToken.trim();
    }

    @Override
    public String toString() {
        return "SecurityProperties{apiTokens=[%d redacted], internalToken=%s, insecureLocal=%s}"
                .formatted(apiTokens.size(), internalToken.isEmpty() ? "<unset>" : "<redacted>", insecureLocal);
    }
}
