package dev.egress.app.routing;

import dev.egress.discovery.registry.RegistryAuth;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Where the Border registry (a YDB coordination node) is.
 *
 * @param connectionString YDB connection string, e.g. {@code grpc://127.0.0.1:2136/local}; empty means no
 *                         registry watcher is started and the routing table is fed by other means (tests)
 * @param node             coordination node path under the database
 * @param semaphore        the semaphore Borders hold slots of
 * @param sessionTimeout   how long the server keeps a disconnected session
 * @param token            YDB access token; never logged
 * @param tokenFile        file holding the YDB access token, re-read for every call (rotation)
 * @param caCertificates   PEM CA certificates for a {@code grpcs://} registry with a private CA
 * @param createIfMissing  whether App creates the coordination node and the semaphore when missing; false by
 *                         default so App needs only read rights (Borders create them); the local platform sets it
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

    /**
     * The credentials these properties describe.
     *
     * @return the credentials
     * @throws IllegalArgumentException naming the property at fault
     */
    public RegistryAuth auth() {
        return RegistryAuth.fromProperties(token, tokenFile, caCertificates);
    }

    @Override
    public String toString() {
        // The token never appears in logs or failure reports.
        return "RegistryProperties[connectionString=" + connectionString + ", node=" + node + ", semaphore=" + semaphore
                + ", sessionTimeout=" + sessionTimeout + ", token=" + (token.isBlank() ? "(none)" : "(set)")
                + ", tokenFile=" + tokenFile + ", caCertificates=" + caCertificates + ", createIfMissing=" + createIfMissing + "]";
    }
}
