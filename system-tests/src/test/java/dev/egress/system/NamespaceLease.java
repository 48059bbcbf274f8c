package dev.egress.system;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A namespace test's hold on the machine ({@link NetworkTopology}, {@link NatNetwork}): a machine-wide
 * file lock, since two runs on one machine (two worktrees) would fight over the namespace names; the
 * leftovers of an earlier run removed once the lock is held; and the same removal on {@link #close()}
 * or, if the JVM exits first, in a shutdown hook.
 */
final class NamespaceLease implements AutoCloseable {

    private final FileChannel channel;
    private final FileLock lock;
    private final Runnable removeAll;
    private final Thread shutdownHook;
    private boolean closed;

    private NamespaceLease(FileChannel channel, FileLock lock, Runnable removeAll, String hookName) {
        this.channel = channel;
        this.lock = lock;
        this.removeAll = removeAll;
        this.shutdownHook = new Thread(removeAll, hookName);
    }

    /**
     * Waits for the lock, then removes leftovers.
     *
     * @param lockFile  the machine-wide lock file
     * @param removeAll deletes every namespace (and link) of the test
     * @param hookName  name of the shutdown hook's thread
     * @return the held lease
     * @throws IOException if the lock cannot be taken
     */
    static NamespaceLease take(Path lockFile, Runnable removeAll, String hookName) throws IOException {
        FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        NamespaceLease lease = new NamespaceLease(channel, channel.lock(), removeAll, hookName);
        removeAll.run();
        Runtime.getRuntime().addShutdownHook(lease.shutdownHook);
        return lease;
    }

    /** Removes the namespaces and releases the lock; a second call does nothing. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        removeAll.run();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // Called while the JVM exits: the hook runs anyway.
        }
        try {
            lock.release();
            channel.close();
        } catch (IOException e) {
            // The lock goes with the process anyway.
        }
    }
}
