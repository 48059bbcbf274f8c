package dev.egress.discovery.web.auth;

import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * The bearer tokens one door accepts, given in configuration or in a token file (a mounted Secret, in
 * the one format described by {@link TokenFile}: one token per line, {@code #} comments and blank lines
 * ignored). A file is read again when it changes, so a rotated Secret takes effect without a restart and
 * listing the old and the new token side by side lets both work during a rollover; an emptied, vanished
 * or unreadable file revokes: nothing is accepted from it until it holds tokens again (ERROR once, gauge
 * {@code egress.security.token.file.revoked}).
 */
public final class TokenSource {

    /** How often a token file's metadata is checked at most. */
    public static final Duration RECHECK = TokenFile.RECHECK;

    private final BearerTokens fixed;
    private final TokenFile<BearerTokens> file;

    private TokenSource(BearerTokens fixed, TokenFile<BearerTokens> file) {
        this.fixed = fixed;
        this.file = file;
    }

    /**
     * Tokens given in configuration; never change.
     *
     * @param tokens the secrets (blank ones ignored; not kept in clear)
     * @return the source
     */
    public static TokenSource fixed(Collection<String> tokens) {
        return new TokenSource(BearerTokens.of(tokens), null);
    }

    /**
     * Tokens from either a property or a file property, not both.
     *
     * @param tokenProperty name of the inline property, for messages
     * @param tokens        its value (possibly empty)
     * @param fileProperty  name of the file property, for messages
     * @param fileLocation  its value, null or blank when unset
     * @return the source; empty when neither is set
     * @throws IllegalArgumentException naming the property at fault
     */
    public static TokenSource of(
            String tokenProperty, Collection<String> tokens, String fileProperty, @Nullable String fileLocation) {
        boolean inline = tokens.stream().anyMatch(t -> t != null && !t.isBlank());
        if (fileLocation == null || fileLocation.isBlank()) {
            return fixed(tokens);
        }
        if (inline) {
            throw new IllegalArgumentException(
                    "%s and %s: set one of them, not both".formatted(tokenProperty, fileProperty));
        }
        return file(Path.of(fileLocation.strip()), fileProperty, System::nanoTime);
    }

    /**
     * Tokens from a token file.
     *
     * @param file     the file
     * @param property the property that named it, for messages
     * @param nanos    the clock for re-checks (tests)
     * @return the source
     * @throws IllegalArgumentException if the file cannot be read
     */
    static TokenSource file(Path file, String property, LongSupplier nanos) {
        return new TokenSource(
                null,
                new TokenFile<>(
                        file,
                        property,
                        "every call with a token from it is refused",
                        BearerTokens::of,
                        BearerTokens.none(),
                        nanos));
    }

    /**
     * The tokens accepted now; re-reads the file if it changed since the last check.
     *
     * @return the tokens (none while the file is revoked)
     */
    public BearerTokens current() {
        return file == null ? fixed : file.current();
    }

    /**
     * Whether the tokens come from a file that is revoked now (emptied, vanished, unreadable).
     *
     * @return true while the file revokes every token; false for configured tokens
     */
    public boolean revoked() {
        return file != null && file.revoked();
    }

    /**
     * Registers the revocation gauge of the file, if the tokens come from one.
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
        return file == null ? "TokenSource[" + fixed.size() + " configured]" : "TokenSource[" + file + "]";
    }
}
