package dev.egress.discovery.web.auth;

import dev.egress.discovery.files.WatchedFile;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A token file (a mounted Secret) and what it currently means. <b>The one format of every token file</b>,
 * App's and Border's, accepted lists and the presented token alike: UTF-8, one token per line, surrounding
 * whitespace trimmed, blank lines and lines starting with {@code #} ignored.
 *
 * <p>The file is a {@link WatchedFile} checked when read, at most once per {@link #RECHECK} (tokens are read
 * per request, so no poller is needed), with its one change rule, so a rotated Secret takes effect without a
 * restart. It fails closed: a file that is emptied, vanishes or cannot be read after the start (or holds what
 * its reader refuses) is <em>revoked</em> — it yields its reader's empty value, so nothing from it is accepted
 * (or presented) — until it holds tokens again. The change is logged once at ERROR, naming the file and never
 * a token, and shown by the gauge {@code egress.security.token.file.revoked}. At construction the file must be
 * readable (a wrong path is a typo that stops the service); an empty file starts revoked, so a restart does
 * not turn a revocation into a crash loop; so does content the reader refuses.
 *
 * @param <T> what the tokens become ({@link BearerTokens}, or the header App presents)
 */
final class TokenFile<T> {

    /** How often a token file is checked at most. */
    static final Duration RECHECK = Duration.ofSeconds(1);

    private static final Logger log = LoggerFactory.getLogger(TokenFile.class);

    /**
     * What the file holds.
     *
     * @param value   the tokens as the reader takes them, or its empty value when revoked
     * @param count   how many tokens the file held
     * @param revoked why the file is revoked, null when it is not
     */
    private record State<T>(T value, int count, @Nullable String revoked) {}

    private final Path file;
    private final String property;
    private final String consequence;
    private final WatchedFile<State<T>> watched;

    /**
     * Reads the file for the first time.
     *
     * @param file        the file
     * @param property    the property that named it, for messages
     * @param consequence what a revocation means, for the ERROR line (e.g. "calls with its tokens are refused")
     * @param reader      turns the tokens into the value; throws {@link IllegalArgumentException} (without
     *                    token content) for content it refuses
     * @param empty       the value of a revoked file
     * @param nanos       the clock for re-checks (tests)
     * @throws IllegalArgumentException if the file cannot be read
     */
    TokenFile(
            Path file,
            String property,
            String consequence,
            Function<List<String>, T> reader,
            T empty,
            LongSupplier nanos) {
        this.file = file;
        this.property = property;
        this.consequence = consequence;
        try {
            this.watched = WatchedFile.<State<T>>of(property, file, bytes -> read(bytes, reader, empty))
                    .whenUnreadable(e -> new State<>(
                            empty, 0, "cannot be read (" + e.getClass().getSimpleName() + ")"))
                    .clocks(Clock.systemUTC(), nanos)
                    .checkWhenRead(RECHECK);
        } catch (UncheckedIOException e) {
            throw new IllegalArgumentException(
                    "%s: %s (expected: a readable file): %s".formatted(property, file, e.getCause()));
        }
        State<T> first = watched.get();
        if (first.revoked() != null) {
            logRevoked(first.revoked());
        }
        watched.onChange(this::changed);
    }

    /**
     * The tokens of a file's content in the one format.
     *
     * @param content the file's text
     * @return the tokens, in order, trimmed; without blank and comment lines
     */
    static List<String> parse(String content) {
        return content.lines()
                .map(String::strip)
                .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                .toList();
    }

    /**
     * The value now; re-reads the file if it changed since the last check.
     *
     * @return the reader's value, or its empty value while the file is revoked
     */
    T current() {
        return watched.get().value();
    }

    /**
     * Whether the file is revoked now (re-checked like {@link #current()}).
     *
     * @return true while nothing from the file counts
     */
    boolean revoked() {
        return watched.get().revoked() != null;
    }

    /**
     * Registers {@code egress.security.token.file.revoked} (1 while revoked) for this file, and counts its
     * reloads in {@code egress.file.reloads{file=<property>}}.
     *
     * @param meters the registry
     */
    void register(MeterRegistry meters) {
        watched.countReloadsIn(meters);
        Gauge.builder("egress.security.token.file.revoked", this, f -> f.revoked() ? 1 : 0)
                .description("1 while a token file is emptied, missing or unreadable: nothing from it counts")
                .tag("property", property)
                .tag("file", file.toString())
                .register(meters);
    }

    private void changed(State<T> fresh) {
        if (fresh.revoked() == null) {
            log.info("{}: re-read {}; {} token(s)", property, file, fresh.count());
        } else {
            logRevoked(fresh.revoked()); // a new reason (the watched file reports each bad state once)
        }
    }

    /** The content as a state: refused content is a revoked state, never a rejection (the file fails closed). */
    private static <T> State<T> read(byte[] bytes, Function<List<String>, T> reader, T empty) {
        List<String> tokens = parse(new String(bytes, StandardCharsets.UTF_8));
        if (tokens.isEmpty()) {
            return new State<>(empty, 0, "holds no token");
        }
        try {
            return new State<>(reader.apply(tokens), tokens.size(), null);
        } catch (IllegalArgumentException e) {
            return new State<>(empty, tokens.size(), e.getMessage());
        }
    }

    private void logRevoked(String why) {
        log.error("{}: {} {}: revoked, {} until it holds tokens again", property, file, why, consequence);
    }

    @Override
    public String toString() {
        return "file " + file;
    }
}
