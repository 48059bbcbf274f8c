package dev.egress.discovery.registry;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * One Border's durable record of its operator decisions, kept in the registry beside its slot (which dies
 * with the Border's session, while this record survives it). The record is opaque bytes here: the Border
 * owns its format, and the store only keeps the last one written. Writes replace the whole record; there
 * is no compare-and-set, so a Border writes its own record only, one write at a time.
 */
public interface DecisionStore {

    /** Largest record a store accepts (well under the coordination node's 1 MiB semaphore data limit). */
    int MAX_BYTES = 64 * 1024;

    /**
     * Reads the record.
     *
     * @return completes with the last record written, or empty if none was ever written; fails with a
     *     {@link RegistryException} if the registry could not be read
     */
    CompletableFuture<Optional<byte[]>> read();

    /**
     * Replaces the record. Completes only once the registry holds it, so a caller may act on the decision
     * afterwards and find it again after a restart.
     *
     * @param record the whole new record, at most {@link #MAX_BYTES}
     * @return completes when stored; fails with a {@link RegistryException} if the registry refused it or did
     *     not answer
     * @throws IllegalArgumentException if the record is empty or larger than {@link #MAX_BYTES}
     */
    CompletableFuture<Void> write(byte[] record);
}
