package dev.egress.border.testing;

import dev.egress.discovery.registry.DecisionStore;
import dev.egress.discovery.registry.RegistryException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A decision store double for Spring-level tests: keeps the last record in memory, and fails reads or
 * writes when told to (a registry outage), counting the attempts.
 */
public final class InMemoryDecisionStore implements DecisionStore {

    private volatile byte[] record;
    private volatile boolean failReads;
    private volatile boolean failWrites;
    /** While set, writes wait for it and then apply (or fail, if failWrites is set by then). */
    private volatile CompletableFuture<Void> held;

    private final AtomicInteger reads = new AtomicInteger();
    private final AtomicInteger writes = new AtomicInteger();

    /**
     * The record stored now.
     *
     * @return the bytes, or null if nothing was written
     */
    public byte[] stored() {
        byte[] r = record;
        return r == null ? null : r.clone();
    }

    /**
     * Puts a record in place as if written earlier (a previous run's, or a corrupt one).
     *
     * @param bytes the record, or null for none
     */
    public void preset(byte[] bytes) {
        record = bytes == null ? null : bytes.clone();
    }

    /**
     * Makes reads fail (or succeed again).
     *
     * @param fail whether reads fail
     */
    public void failReads(boolean fail) {
        failReads = fail;
    }

    /**
     * Makes writes fail (or succeed again).
     *
     * @param fail whether writes fail
     */
    public void failWrites(boolean fail) {
        failWrites = fail;
    }

    /**
     * Makes the next writes wait (a slow registry) until the returned future completes; they then store, or fail if
     * {@link #failWrites} was set meanwhile.
     *
     * @return complete it to let the held writes go on
     */
    public CompletableFuture<Void> holdWrites() {
        CompletableFuture<Void> gate = new CompletableFuture<>();
        held = gate;
        return gate;
    }

    /**
     * Read attempts so far.
     *
     * @return the count
     */
    public int reads() {
        return reads.get();
    }

    /**
     * Write attempts so far.
     *
     * @return the count
     */
    public int writes() {
        return writes.get();
    }

    @Override
    public CompletableFuture<Optional<byte[]>> read() {
        reads.incrementAndGet();
        if (failReads) {
            return CompletableFuture.failedFuture(new RegistryException("read decisions: registry down (test)"));
        }
        return CompletableFuture.completedFuture(Optional.ofNullable(stored()));
    }

    @Override
    public CompletableFuture<Void> write(byte[] next) {
        writes.incrementAndGet();
        byte[] bytes = next.clone();
        CompletableFuture<Void> gate = held;
        return gate == null ? store(bytes) : gate.thenCompose(go -> store(bytes));
    }

    private CompletableFuture<Void> store(byte[] bytes) {
        if (failWrites) {
            return CompletableFuture.failedFuture(new RegistryException("write decisions: registry down (test)"));
        }
        record = bytes;
        return CompletableFuture.completedFuture(null);
    }
}
