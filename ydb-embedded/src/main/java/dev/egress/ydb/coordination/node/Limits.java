package dev.egress.ydb.coordination.node;

/** The limits of YDB's coordination node (Kesus tablet), so that the embedded node rejects what YDB rejects. */
final class Limits {

    /** Largest semaphore name, in bytes. */
    static final int MAX_NAME_BYTES = 1024;
    /** Largest semaphore or owner data, in bytes. */
    static final int MAX_DATA_BYTES = 1024 * 1024;
    /** Largest session description, in bytes. */
    static final int MAX_DESCRIPTION_BYTES = 1024;
    /** Largest protection key, in bytes. */
    static final int MAX_PROTECTION_KEY_BYTES = 16;
    /** Longest session timeout: 30 minutes. */
    static final long MAX_SESSION_TIMEOUT_MILLIS = 30L * 60 * 1000;
    /** Longest finite acquire timeout: one day ({@link #INFINITE} is also accepted). */
    static final long MAX_ACQUIRE_TIMEOUT_MILLIS = 24L * 60 * 60 * 1000;
    /** Most sessions and most semaphores a node holds. */
    static final int MAX_SESSIONS = 1_000_000;
    /** Most semaphores a node holds. */
    static final int MAX_SEMAPHORES = 1_000_000;
    /** {@code Max<ui64>()}: an infinite timeout and the limit of ephemeral semaphores. */
    static final long INFINITE = -1L;

    private Limits() {}
}
