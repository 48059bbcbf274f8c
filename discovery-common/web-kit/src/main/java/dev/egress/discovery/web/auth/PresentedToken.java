package dev.egress.discovery.web.auth;

import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * The one bearer token a service presents to another (App's internal token to Borders), given in
 * configuration or in a token file ({@link TokenFile}'s format: exactly one token line). Kept apart from
 * the list the other side accepts, so a rollover is three steps that never break a call: the Borders
 * accept old and new, App's file switches to the new one (read again without a restart), the Borders
 * drop the old. A file that is emptied, vanishes, cannot be read or holds more than one token is revoked:
 * nothing is presented (the other side refuses the calls) until it holds one token again, logged once at
 * ERROR and shown by the gauge {@code egress.security.token.file.revoked}.
 */
public final class PresentedToken {

    private final Optional<String> fixed;
    private final TokenFile<Optional<String>> file;

    private PresentedToken(Optional<String> fixed, TokenFile<Optional<String>> file) {
        this.fixed = fixed;
        this.file = file;
    }

    /**
     * The token from either a property or a file property, not both.
     *
     * @param tokenProperty name of the inline property, for messages
     * @param token         its value, null or blank when unset
     * @param fileProperty  name of the file property, for messages
     * @param fileLocation  its value, null or blank when unset
     * @return the token; presents nothing when neither is set
     * @throws IllegalArgumentException naming the property at fault (both set, file unreadable)
     */
    public static PresentedToken of(String tokenProperty, String token, String fileProperty, String fileLocation) {
        boolean inline = token != null && !token.isBlank();
        if (fileLocation == null || fileLocation.isBlank()) {
            return new PresentedToken(inline ? Optional.of(bearer(token.strip())) : Optional.empty(), null);
        }
        if (inline) {
            throw new IllegalArgumentException(
                    "%s and %s: set one of them, not both".formatted(tokenProperty, fileProperty));
        }
        return file(Path.of(fileLocation.strip()), fileProperty, System::nanoTime);
    }

    /**
     * The token from a token file.
     *
     * @param file     the file
     * @param property the property that named it, for messages
     * @param nanos    the clock for re-checks (tests)
     * @return the token
     * @throws IllegalArgumentException if the file cannot be read
     */
    static PresentedToken file(Path file, String property, LongSupplier nanos) {
        return new PresentedToken(
                null,
                new TokenFile<>(
                        file,
                        property,
                        "no token is presented and the calls are refused",
                        PresentedToken::single,
                        Optional.empty(),
                        nanos));
    }

    private static Optional<String> single(List<String> tokens) {
        if (tokens.size() != 1) {
            // Never the content: the lines are secrets.
            throw new IllegalArgumentException(
                    "holds %d tokens (expected: exactly one, the token presented)".formatted(tokens.size()));
        }
        return Optional.of(bearer(tokens.get(0)));
    }

    private static String bearer(String token) {
        return "Bearer " + token;
    }

    /**
     * The {@code Authorization} header value to send now; re-reads the file if it changed.
     *
     * @return {@code Bearer <token>}, or empty when nothing is configured or the file is revoked
     */
    public Optional<String> authorization() {
        return file == null ? fixed : file.current();
    }

    /**
     * Whether nothing is presented because the file is revoked.
     *
     * @return true while the file is emptied, missing, unreadable or ambiguous
     */
    public boolean revoked() {
        return file != null && file.revoked();
    }

    /**
     * Registers the revocation gauge of the file, if the token comes from one.
     *
     * @param meters the registry
     */
    public void register(MeterRegistry meters) {
        if (file != null) {
            file.register(meters);
        }
    }

    @Override
    public String toString() {
        return file == null
                ? "PresentedToken[" + (fixed.isPresent() ? "<redacted>" : "<unset>") + "]"
                : "PresentedToken[" + file + "]";
    }
}
