package dev.egress.app.proxy;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The credentials of a {@code Proxy-Authorization: Basic base64(user:token)} header (RFC 7617): the user names
 * the tenant (empty: pick it by destination), the password is an API token. Never printed: {@link #toString}
 * leaves the token out.
 *
 * @param user  the user, possibly empty
 * @param token the token, never empty
 */
record ProxyCredentials(String user, String token) {

    private static final String SCHEME = "basic";

    /**
     * Reads the header.
     *
     * @param header the header value, or null when absent
     * @return the credentials, or empty when absent, not Basic, not base64, not UTF-8, without a colon or with
     *     an empty token
     */
    static Optional<ProxyCredentials> parse(@Nullable String header) {
        if (header == null) {
            return Optional.empty();
        }
        String value = header.strip();
        int space = value.indexOf(' ');
        if (space != SCHEME.length() || !value.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
            return Optional.empty();
        }
        byte[] decoded;
        try {
            decoded = Base64.getDecoder().decode(value.substring(space + 1).strip());
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        String text;
        try {
            text = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(decoded))
                    .toString();
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
        int colon = text.indexOf(':');
        if (colon < 0 || colon == text.length() - 1) {
            return Optional.empty();
        }
        return Optional.of(new ProxyCredentials(text.substring(0, colon), text.substring(colon + 1)));
    }

    @Override
    public String toString() {
        return "ProxyCredentials[user=" + user + ", token=(hidden)]";
    }
}
