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
 */
public record RegistrySettings(String connectionString, String node, String semaphore, Duration sessionTimeout,
                               Duration pollInterval, RegistryAuth auth) {

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
                    "connectionString: '%s' (expected: grpc://host:port/database or grpcs://...)".formatted(connectionString));
        }
        if (node == null || node.isBlank()) {
            throw new IllegalArgumentException("node: '%s' (expected: a non-empty path)".formatted(node));
        }
        if (semaphore == null || semaphore.isBlank()) {
            throw new IllegalArgumentException("semaphore: '%s' (expected: a non-empty name)".formatted(semaphore));
        }
        if (sessionTimeout == null || sessionTimeout.toMillis() < 1 || sessionTimeout.compareTo(Duration.ofMinutes(30)) > 0) {
            throw new IllegalArgumentException("sessionTimeout: %s (expected: 1ms..30m)".formatted(sessionTimeout));
        }
        if (pollInterval == null || pollInterval.toMillis() < 10) {
            throw new IllegalArgumentException("pollInterval: %s (expected: >= 10ms)".formatted(pollInterval));
        }
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
    public RegistrySettings(String connectionString, String node, String semaphore, Duration sessionTimeout,
                            Duration pollInterval) {
        this(connectionString, node, semaphore, sessionTimeout, pollInterval, RegistryAuth.NONE);
    }

    /**
     * These settings with other credentials.
     *
     * @param credentials the credentials and TLS trust
     * @return the new settings
     */
    public RegistrySettings withAuth(RegistryAuth credentials) {
        return new RegistrySettings(connectionString, node, semaphore, sessionTimeout, pollInterval, credentials);
    }

    /**
     * Settings with the defaults of DESIGN §5: node {@code egress}, semaphore {@code borders-registry},
     * session timeout 5 s, poll 500 ms.
     *
     * @param connectionString the YDB connection string
     * @return the settings
     */
    public static RegistrySettings defaults(String connectionString) {
        return new RegistrySettings(connectionString, "egress", "borders-registry", Duration.ofSeconds(5),
                Duration.ofMillis(500));
    }
}
