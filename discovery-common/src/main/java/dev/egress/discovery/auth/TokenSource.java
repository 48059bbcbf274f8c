package dev.egress.discovery.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bearer tokens one door accepts, given in configuration or in a file (a mounted Secret). A file
 * holds one token per line (blank lines ignored, line ends trimmed) and is read again when its
 * modification time or size changes, checked at most once per {@link #RECHECK}: a rotated Secret
 * takes effect without a restart, and listing the old and the new token side by side lets both work
 * during a rollover. A file that cannot be read later keeps the last tokens read (logged, never the
 * content); at construction it must be readable and hold a token, so a typo stops the service.
 */
public final class TokenSource {

    /** How often a token file's metadata is checked at most. */
    public static final Duration RECHECK = Duration.ofSeconds(1);

    private static final Logger log = LoggerFactory.getLogger(TokenSource.class);

    private final Path file;
    private final String property;
    private final LongSupplier nanos;
    private final AtomicReference<Loaded> loaded;
    private final AtomicLong nextCheck;

    private record Loaded(BearerTokens tokens, FileTime modified, long size) {}

    private TokenSource(Path file, String property, LongSupplier nanos, Loaded initial) {
        this.file = file;
        this.property = property;
        this.nanos = nanos;
        this.loaded = new AtomicReference<>(initial);
        this.nextCheck = new AtomicLong(nanos.getAsLong() + RECHECK.toNanos());
    }

    /**
     * Tokens given in configuration; never change.
     *
     * @param tokens the secrets (blank ones ignored; not kept in clear)
     * @return the source
     */
    public static TokenSource fixed(Collection<String> tokens) {
        return new TokenSource(null, null, System::nanoTime, new Loaded(BearerTokens.of(tokens), null, 0));
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
     * Tokens from a file, one per line.
     *
     * @param file     the file
     * @param property the property that named it, for messages
     * @param nanos    the clock for re-checks (tests)
     * @return the source
     * @throws IllegalArgumentException if the file cannot be read or holds no token
     */
    static TokenSource file(Path file, String property, LongSupplier nanos) {
        Loaded first;
        try {
            first = read(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("%s: %s (expected: a readable file): %s".formatted(property, file, e));
        }
        if (first.tokens().isEmpty()) {
            throw new IllegalArgumentException(
                    "%s: %s holds no token (expected: one token per line)".formatted(property, file));
        }
        return new TokenSource(file, property, nanos, first);
    }

    /**
     * Reads a file holding exactly one secret (e.g. the token App presents to Borders), trimmed of the
     * trailing newline a Secret or an editor adds.
     *
     * @param property the property that named the file, for messages
     * @param location the file
     * @return the secret
     * @throws IllegalArgumentException if the file cannot be read or is blank
     */
    public static String readSecret(String property, String location) {
        Path path = Path.of(location.strip());
        String content;
        try {
            content = Files.readString(path, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new IllegalArgumentException("%s: %s (expected: a readable file): %s".formatted(property, path, e));
        }
        if (content.isEmpty() || content.lines().count() != 1) {
            throw new IllegalArgumentException("%s: %s (expected: one token on one line)".formatted(property, path));
        }
        return content;
    }

    /**
     * The tokens accepted now; re-reads the file if it changed since the last check.
     *
     * @return the tokens
     */
    public BearerTokens current() {
        if (file != null) {
            long now = nanos.getAsLong();
            long due = nextCheck.get();
            if (now - due >= 0 && nextCheck.compareAndSet(due, now + RECHECK.toNanos())) {
                refresh();
            }
        }
        return loaded.get().tokens();
    }

    private void refresh() {
        Loaded last = loaded.get();
        try {
            FileTime modified = Files.getLastModifiedTime(file);
            long size = Files.size(file);
            if (modified.equals(last.modified()) && size == last.size()) {
                return;
            }
            Loaded fresh = read(file);
            if (fresh.tokens().isEmpty()) {
                log.warn(
                        "{}: {} holds no token now; keeping the {} token(s) read before",
                        property,
                        file,
                        last.tokens().size());
                return;
            }
            loaded.set(fresh);
            log.info(
                    "{}: re-read {}; {} token(s) accepted",
                    property,
                    file,
                    fresh.tokens().size());
        } catch (IOException | RuntimeException e) {
            log.warn(
                    "{}: cannot read {}: {}; keeping the {} token(s) read before",
                    property,
                    file,
                    e.getClass().getSimpleName(),
                    last.tokens().size());
        }
    }

    private static Loaded read(Path file) throws IOException {
        FileTime modified = Files.getLastModifiedTime(file);
        long size = Files.size(file);
        // Blank lines need no filter here: BearerTokens ignores blank entries.
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                .map(String::strip)
                .toList();
        return new Loaded(BearerTokens.of(lines), modified, size);
    }

    @Override
    public String toString() {
        return file == null
                ? "TokenSource[" + loaded.get().tokens().size() + " configured]"
                : "TokenSource[file " + file + "]";
    }
}
