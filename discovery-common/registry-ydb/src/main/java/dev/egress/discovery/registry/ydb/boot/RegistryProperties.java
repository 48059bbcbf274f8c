package dev.egress.discovery.registry.ydb.boot;

import dev.egress.discovery.registry.RegistryAuth;
import dev.egress.discovery.registry.RegistrySettings;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Where the Border registry (a YDB coordination node) is ({@code egress.registry.*}), for both services:
 * Borders publish into it, the App watches it. One record so that the two cannot drift apart in names,
 * defaults or validation; {@link RegistryAutoConfiguration} turns it into the client each service needs.
 *
 * @param connectionString YDB connection string, e.g. {@code grpc://127.0.0.1:2136/local}; required by a
 *                         Border (unless another {@code BorderRegistry} bean is supplied); empty on the App
 *                         means no registry watcher is started and the routing table is fed by other means
 *                         (tests)
 * @param node             coordination node path under the database
 * @param semaphore        the semaphore Borders hold slots of
 * @param sessionTimeout   how long the server keeps a disconnected session (a Border's slot: crash detection
 *                         time)
 * @param token            YDB access token; never logged
 * @param tokenFile        file holding the YDB access token, re-read for every call (rotation)
 * @param caCertificates   PEM CA certificates for a {@code grpcs://} registry with a private CA
 * @param createIfMissing  whether the App creates the coordination node and the semaphore when missing; false
 *                         by default so the App needs only read rights (Borders create them); the local
 *                         platform sets it. A Border always creates them and ignores this
 */
@Validated
@ConfigurationProperties("egress.registry")
public record RegistryProperties(
        @DefaultValue("") String connectionString,
        @DefaultValue("egress") @NotBlank String node,
        @DefaultValue("borders-registry") @NotBlank String semaphore,
        @DefaultValue("5s") @NotNull Duration sessionTimeout,
        @DefaultValue("") String token,
        @DefaultValue("") String tokenFile,
        @DefaultValue("") String caCertificates,
        @DefaultValue("false") boolean createIfMissing) {

    /** A publisher does not watch: its poll interval only has to be valid. */
    private static final Duration PUBLISHER_POLL = Duration.ofMillis(500);

    /** Trims the connection string; a missing one is empty. */
    public RegistryProperties {
        connectionString = connectionString == null ? "" : connectionString.trim();
    }

    /**
     * Whether a connection string is set.
     *
     * @return false when {@code egress.registry.connection-string} is empty
     */
    public boolean configured() {
        return !connectionString.isEmpty();
    }

    /**
     * The credentials these properties describe.
     *
     * @return the credentials
     * @throws IllegalArgumentException naming the property at fault
     */
    public RegistryAuth auth() {
        return RegistryAuth.fromProperties(token, tokenFile, caCertificates);
    }

    /**
     * The adapter's settings for a publisher (a Border), which always creates the node and the semaphore
     * when they are missing.
     *
     * @param insecureLocal {@code egress.security.insecure-local}: allows a token over plaintext {@code grpc://}
     * @return the settings
     * @throws IllegalArgumentException if the connection string is missing or malformed, or a token would
     *                                  travel in plaintext
     */
    public RegistrySettings publisherSettings(boolean insecureLocal) {
        return settings(PUBLISHER_POLL, true).requireTokenOverTls(insecureLocal);
    }

    /**
     * The adapter's settings for a watcher (the App), which creates what is missing only when told.
     *
     * @param pollInterval  the watcher's safety-net poll period
     * @param insecureLocal {@code egress.security.insecure-local}: allows a token over plaintext {@code grpc://}
     * @return the settings
     * @throws IllegalArgumentException if the connection string is missing or malformed, or a token would
     *                                  travel in plaintext
     */
    public RegistrySettings watcherSettings(Duration pollInterval, boolean insecureLocal) {
        return settings(pollInterval, createIfMissing).requireTokenOverTls(insecureLocal);
    }

    private RegistrySettings settings(Duration pollInterval, boolean create) {
        if (!configured()) {
            throw new IllegalArgumentException(
                    "egress.registry.connection-string: not set (expected: grpc://host:port/database)");
        }
        return new RegistrySettings(connectionString, node, semaphore, sessionTimeout, pollInterval, auth(), create);
    }

    @Override
    public String toString() {
        // The token never appears in logs or failure reports.
        return "RegistryProperties[connectionString=" + connectionString + ", node=" + node + ", semaphore=" + semaphore
                + ", sessionTimeout=" + sessionTimeout + ", token=" + (token.isBlank() ? "(none)" : "(set)")
                + ", tokenFile=" + tokenFile + ", caCertificates=" + caCertificates + ", createIfMissing="
                + createIfMissing + "]";
    }
}
