package dev.egress.discovery.registry;

import java.time.Duration;
import java.util.Objects;

/**
 * Where the registry lives and how to hold sessions with it.
 *
 * @param connectionString YDB connection string, e.g. {@code grpc://127.0.0.1:2136/local}
 * @param node             coordination node path (relative to the database), e.g. {@code egress}
 * @param semaphore        semaphore name, e.g. {@code borders-registry}
 * @param sessionTimeout   how long the server keeps a disconnected session (and its slot)
 * @param pollInterval     watcher's safety-net poll period
 * @param auth             credentials and TLS trust for the connection
 * @param createIfMissing  whether this participant creates the node and the semaphore when they are missing
 *                         (Borders: yes; App: only when told, so it can run with read-only registry rights
 *                         and keeps waiting, not ready, until a Border has created them)
 */
public record RegistrySettings(
        String connectionString,
        String node,
        String semaphore,
        Duration sessionTimeout,
        Duration pollInterval,
        RegistryAuth auth,
        boolean createIfMissing) {

    /** The shortest poll period a watcher accepts. */
    public static final Duration MIN_POLL_INTERVAL = Duration.ofMillis(10);

    /** Validates every value. */
    public RegistrySettings {
        Objects.requireNonNull(connectionString, "connectionString");
        Objects.requireNonNull(auth, "auth");
        if (auth.caCertificates() != null && !connectionString.startsWith("grpcs://")) {
            throw new IllegalArgumentException(
                    "caCertificates: set, but '%s' is plaintext (expected: grpcs://...)".formatted(connectionString));
        }
        if (!connectionString.startsWith("grpc://") && !connectionString.startsWith("grpcs://")) {
            throw new IllegalArgumentException(
                    "connectionString: '%s' (expected: grpc://host:port/database or grpcs://...)"
                            .formatted(connectionString));
        }
        if (node == null || node.isBlank()) {
            throw new IllegalArgumentException("node: '%s' (expected: a non-empty path)".formatted(node));
        }
        if (semaphore == null || semaphore.isBlank()) {
            throw new IllegalArgumentException("semaphore: '%s' (expected: a non-empty name)".formatted(semaphore));
        }
        if (sessionTimeout == null
                || sessionTimeout.toMillis() < 1
                || sessionTimeout.compareTo(Duration.ofMinutes(30)) > 0) {
            throw new IllegalArgumentException("sessionTimeout: %s (expected: 1ms..30m)".formatted(sessionTimeout));
        }
        if (pollInterval == null || pollInterval.compareTo(MIN_POLL_INTERVAL) < 0) {
            throw new IllegalArgumentException("pollInterval: %s (expected: >= 10ms)".formatted(pollInterval));
        }
    }

    /**
     * Settings of a participant that creates what is missing.
     *
     * @param connectionString YDB connection string
     * @param node             coordination node path
     * @param semaphore        semaphore name
     * @param sessionTimeout   session timeout
     * @param pollInterval     watcher's poll period
     * @param auth             credentials and TLS trust
     */
    public RegistrySettings(
            String connectionString,
            String node,
            String semaphore,
            Duration sessionTimeout,
            Duration pollInterval,
            RegistryAuth auth) {
        this(connectionString, node, semaphore, sessionTimeout, pollInterval, auth, true);
    }

    /**
     * Anonymous settings.
     *
     * @param connectionString YDB connection string
     * @param node             coordination node path
     * @param semaphore        semaphore name
     * @param sessionTimeout   session timeout
     * @param pollInterval     watcher's poll period
     */
    public RegistrySettings(
            String connectionString, String node, String semaphore, Duration sessionTimeout, Duration pollInterval) {
        this(connectionString, node, semaphore, sessionTimeout, pollInterval, RegistryAuth.NONE);
    }

    /**
     * These settings with other credentials.
     *
     * @param credentials the credentials and TLS trust
     * @return the new settings
     */
    public RegistrySettings withAuth(RegistryAuth credentials) {
        return new RegistrySettings(
                connectionString, node, semaphore, sessionTimeout, pollInterval, credentials, createIfMissing);
    }

    /**
     * These settings, creating the node and the semaphore when missing or not.
     *
     * @param create whether to create them
     * @return the new settings
     */
    public RegistrySettings withCreateIfMissing(boolean create) {
        return new RegistrySettings(connectionString, node, semaphore, sessionTimeout, pollInterval, auth, create);
    }

    /**
     * Refuses to send a registry token over plaintext: on {@code grpc://} anyone on the path reads it
     * and can then write the registry. Called by both services when they turn properties into settings.
     *
     * @param insecureLocal {@code egress.security.insecure-local}: allows it for local runs only
     * @return these settings
     * @throws IllegalArgumentException naming the properties, for a token on {@code grpc://}
     */
    public RegistrySettings requireTokenOverTls(boolean insecureLocal) {
        if (auth.authenticated() && connectionString.startsWith("grpc://") && !insecureLocal) {
            throw new IllegalArgumentException(
                    ("egress.registry.token/token-file: set, but egress.registry.connection-string "
                                    + "'%s' is plaintext and would expose the token (expected: grpcs://...; or "
                                    + "egress.security.insecure-local=true for local runs only)")
                            .formatted(connectionString));
        }
        return this;
    }

    /**
     * Settings with the defaults of docs/architecture.md ("Properties"): node {@code egress}, semaphore
     * {@code borders-registry}, session timeout 5 s, poll 500 ms.
     *
     * @param connectionString the YDB connection string
     * @return the settings
     */
    public static RegistrySettings defaults(String connectionString) {
        return new RegistrySettings(
                connectionString, "egress", "borders-registry", Duration.ofSeconds(5), Duration.ofMillis(500));
    }
}
