package dev.egress.border.config;

import dev.egress.discovery.registry.RegistryAuth;
import dev.egress.discovery.registry.RegistrySettings;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Where the registry is ({@code egress.registry.*}).
 *
 * @param connectionString YDB connection string, e.g. {@code grpc://127.0.0.1:2136/local}; required
 *                         unless another {@code BorderRegistry} bean is supplied
 * @param node             coordination node path
 * @param semaphore        the registry semaphore
 * @param sessionTimeout   how long the coordination node keeps this Border's slot after a disconnect
 * @param token            YDB access token; never logged
 * @param tokenFile        file holding the YDB access token, re-read for every call (rotation)
 * @param caCertificates   PEM CA certificates for a {@code grpcs://} registry with a private CA
 */
@Validated
@ConfigurationProperties("egress.registry")
public record RegistryProperties(
        String connectionString,
        @DefaultValue("egress") String node,
        @DefaultValue("borders-registry") String semaphore,
        @DefaultValue("5s") Duration sessionTimeout,
        @DefaultValue("") String token,
        @DefaultValue("") String tokenFile,
        @DefaultValue("") String caCertificates) {

    /**
     * The adapter's settings. A Border always creates the node and the semaphore when missing.
     *
     * @param insecureLocal {@code egress.security.insecure-local}: allows a token over plaintext {@code grpc://}
     * @return the settings (a Border does not watch, so the poll interval is the default)
     * @throws IllegalArgumentException if the connection string is missing or malformed, or a token would
     *                                  travel in plaintext
     */
    public RegistrySettings toSettings(boolean insecureLocal) {
        return toSettings().requireTokenOverTls(insecureLocal);
    }

    /**
     * The adapter's settings, without the plaintext-token check (tests).
     *
     * @return the settings
     * @throws IllegalArgumentException if the connection string is missing or malformed
     */
    RegistrySettings toSettings() {
        if (connectionString == null || connectionString.isBlank()) {
            throw new IllegalArgumentException(
                    "egress.registry.connection-string: not set (expected: grpc://host:port/database)");
        }
        return new RegistrySettings(connectionString, node, semaphore, sessionTimeout, Duration.ofMillis(500),
                RegistryAuth.fromProperties(token, tokenFile, caCertificates));
    }

    @Override
    public String toString() {
        // The token never appears in logs or failure reports.
        return "RegistryProperties[connectionString=" + connectionString + ", node=" + node + ", semaphore=" + semaphore
                + ", sessionTimeout=" + sessionTimeout + ", token=" + (token.isBlank() ? "(none)" : "(set)")
                + ", tokenFile=" + tokenFile + ", caCertificates=" + caCertificates + "]";
    }
}
