package dev.egress.ydb.query.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.zip.CRC32C;
import tech.ydb.proto.ValueProtos;

/**
 * The data directory: {@code tables.snapshot} (a compacted image) and {@code tables.log} (commits since), both a
 * sequence of records {@code [length][crc32c][payload]}. A commit is appended under the commit lock and
 * acknowledged after {@link #awaitDurable}: the first waiter fsyncs everything written so far, the others wait for
 * it (group commit). A torn tail (a crash mid-append) is cut at recovery.
 */
public final class Wal implements AutoCloseable {

    private static final String LOG = "tables.log";
    private static final String SNAPSHOT = "tables.snapshot";

    private final Path dir;
    private final long compactBytes;
    private final TableStats stats;
    private FileChannel log;
    // Logical positions: they keep growing across compactions, so a waiter's position never points into a new file.
    private long written;
    private long durable;
    private long fileBytes;
    private boolean syncing;

    /**
     * @param dir          the data directory (created if missing)
     * @param compactBytes log size after which the next commit compacts into a snapshot
     */
    public Wal(Path dir, long compactBytes, TableStats stats) {
        this.dir = dir;
        this.compactBytes = compactBytes;
        this.stats = stats;
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the data directory " + dir, e);
        }
    }

    /** Replays snapshot and log; returns the last version. Opens the log for appending. */
    long recover(Recovery into) {
        try {
            long snapshotVersion = 0;
            Path snapshot = dir.resolve(SNAPSHOT);
            if (Files.exists(snapshot)) {
                try (FileChannel ch = FileChannel.open(snapshot, StandardOpenOption.READ)) {
                    snapshotVersion = Records.replay(ch, into, 0, false);
                }
            }
            log = FileChannel.open(
                    dir.resolve(LOG), StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            long last = Math.max(snapshotVersion, Records.replay(log, into, snapshotVersion, true));
            fileBytes = log.size();
            written = fileBytes;
            durable = written;
            log.position(written);
            return last;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the data directory " + dir, e);
        }
    }

    synchronized long written() {
        return written;
    }

    /** Bytes in the current log file. */
    public synchronized long size() {
        return fileBytes;
    }

    long appendCommit(long version, Map<Table, NavigableMap<Object[], Object[]>> writes) {
        return append(Records.commit(version, writes));
    }

    long appendDdl(long version, String ddl) {
        return append(Records.ddl(version, ddl));
    }

    long appendDrop(long version, String path) {
        return append(Records.drop(version, path));
    }

    private synchronized long append(ValueProtos.Value record) {
        try {
            int n = Records.write(log, record);
            written += n;
            fileBytes += n;
            return written;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to " + dir.resolve(LOG), e);
        }
    }

    /** Returns once the log is on disk up to {@code position}; one fsync covers every waiter behind it. */
    void awaitDurable(long position) {
        long target;
        synchronized (this) {
            while (durable < position) {
                if (!syncing) {
                    break;
                }
                waitQuietly();
            }
            if (durable >= position) {
                return;
            }
            syncing = true;
            target = written;
        }
        long started = System.nanoTime();
        try {
            log.force(false);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot fsync " + dir.resolve(LOG), e);
        } finally {
            synchronized (this) {
                syncing = false;
                notifyAll();
            }
        }
        stats.fsynced(System.nanoTime() - started);
        synchronized (this) {
            durable = Math.max(durable, target);
            notifyAll();
        }
    }

    private void waitQuietly() {
        try {
            wait();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for fsync", e);
        }
    }

    boolean wantsCompaction() {
        return size() > compactBytes;
    }

    /** Writes every table at {@code version} to a new snapshot, then empties the log (caller holds the lock). */
    synchronized void compact(long version, List<Table> tables) {
        Path tmp = dir.resolve(SNAPSHOT + ".tmp");
        try {
            try (FileChannel out = FileChannel.open(
                    tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                Records.snapshot(out, version, tables);
                out.force(true);
            }
            Files.move(tmp, dir.resolve(SNAPSHOT), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
                d.force(true); // the rename itself
            } catch (IOException ignored) {
                // some file systems cannot open a directory; the rename is still atomic
            }
            log.truncate(0);
            log.position(0);
            log.force(true);
            fileBytes = 0;
            durable = written;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot compact the data directory " + dir, e);
        }
    }

    @Override
    public synchronized void close() {
        try {
            if (log != null) {
                log.force(true);
                log.close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ByteBuffer frame(byte[] payload) {
        CRC32C crc = new CRC32C();
        crc.update(payload);
        ByteBuffer b = ByteBuffer.allocate(8 + payload.length);
        b.putInt(payload.length).putInt((int) crc.getValue()).put(payload).flip();
        return b;
    }
}
