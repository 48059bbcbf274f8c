package dev.egress.discovery.files;

import dev.egress.discovery.files.hash.Sha256;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The one change rule of {@link WatchedFile}: the cheap check first (each file's modification time, size and
 * file key), the bytes read only when that differs or a file is younger than {@link WatchedFile#SETTLE}, and
 * only bytes that differ from the last ones read (SHA-256) count as a change. Not thread-safe: the watched
 * file calls it under its lock.
 */
final class ChangeRule {

    /** What the cheap check compares. */
    private record Meta(
            long modifiedMillis, long size, @Nullable Object key) {}

    private final List<Path> files;
    private final long maxBytes;
    private final Clock clock;
    private @Nullable List<Meta> seen;
    private byte @Nullable [] digest;

    ChangeRule(List<Path> files, long maxBytes, Clock clock) {
        this.files = files;
        this.maxBytes = maxBytes;
        this.clock = clock;
    }

    /**
     * The bytes of the files if they changed since the last call.
     *
     * @return the new bytes, in file order; null if unchanged
     * @throws IOException              if a file cannot be read (what was seen is forgotten, so the same
     *                                  content coming back counts as new)
     * @throws IllegalArgumentException if the files are over the size limit (left unread)
     */
    @Nullable
    List<byte[]> changed() throws IOException {
        try {
            List<Meta> meta = stat();
            if (meta.equals(seen) && !young(meta)) {
                return null;
            }
            seen = meta;
            requireWithinLimit(meta);
            List<byte[]> bytes = read();
            byte[] next = digest(bytes);
            if (Arrays.equals(next, digest)) {
                return null;
            }
            digest = next;
            return bytes;
        } catch (IOException e) {
            seen = null;
            digest = null;
            throw e;
        }
    }

    /**
     * Why the files could not be read, for logs and health (never their content).
     *
     * @param e the read's failure
     * @return the reason
     */
    String cannotRead(IOException e) {
        return "cannot read " + (files.size() == 1 ? files.get(0) : files) + " ("
                + e.getClass().getSimpleName() + ")";
    }

    private List<Meta> stat() throws IOException {
        List<Meta> meta = new ArrayList<>(files.size());
        for (Path file : files) {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            meta.add(new Meta(attributes.lastModifiedTime().toMillis(), attributes.size(), attributes.fileKey()));
        }
        return meta;
    }

    private boolean young(List<Meta> meta) {
        long settled = clock.millis() - WatchedFile.SETTLE.toMillis();
        return meta.stream().anyMatch(m -> m.modifiedMillis() > settled);
    }

    private void requireWithinLimit(List<Meta> meta) {
        long size = meta.stream().mapToLong(Meta::size).sum();
        if (size > maxBytes) {
            throw new IllegalArgumentException("file is %d bytes (expected: <= %d)".formatted(size, maxBytes));
        }
    }

    private List<byte[]> read() throws IOException {
        List<byte[]> bytes = new ArrayList<>(files.size());
        for (Path file : files) {
            bytes.add(Files.readAllBytes(file));
        }
        return bytes;
    }

    private static byte[] digest(List<byte[]> bytes) {
        MessageDigest all = Sha256.digest();
        for (byte[] file : bytes) {
            // Per file first, so that moving bytes from one file to the next is a change.
            all.update(Sha256.of(file));
        }
        return all.digest();
    }
}
