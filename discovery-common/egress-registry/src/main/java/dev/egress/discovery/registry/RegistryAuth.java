package dev.egress.discovery.registry;

import java.nio.file.Files;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * How a registry participant proves who it is to YDB and which CAs it trusts for {@code grpcs://}.
 * Anonymous with the JDK's CAs by default, as for local-ydb and the embedded node.
 *
 * @param token          a static access token (e.g. from a Secret), or null
 * @param tokenFile      a file holding the access token, read again for every call so a rotated token
 *                       is used without a restart; or null
 * @param caCertificates a PEM file of CA certificates to verify YDB's TLS certificate with, instead of
 *                       the JDK's; or null. Needs a {@code grpcs://} connection string.
 */
public record RegistryAuth(
        @Nullable String token,
        @Nullable Path tokenFile,
        @Nullable Path caCertificates) {

    /** Anonymous, JDK CAs. */
    public static final RegistryAuth NONE = new RegistryAuth(null, null, null);

    /** Normalises blanks to null and rejects a token given twice. */
    public RegistryAuth {
        token = token == null || token.isBlank() ? null : token.strip();
        if (token != null && tokenFile != null) {
            throw new IllegalArgumentException("token and tokenFile: give one of them, not both");
        }
    }

    /**
     * Credentials from the shared {@code egress.registry.*} properties of both services; blank means unset.
     * Files must be readable now, so a typo stops the service at startup instead of at the first call.
     *
     * @param token          {@code egress.registry.token}
     * @param tokenFile      {@code egress.registry.token-file}
     * @param caCertificates {@code egress.registry.ca-certificates}
     * @return the credentials
     * @throws IllegalArgumentException naming the property at fault
     */
    public static RegistryAuth fromProperties(String token, String tokenFile, String caCertificates) {
        boolean hasToken = token != null && !token.isBlank();
        Path file = readable("egress.registry.token-file", tokenFile);
        if (hasToken && file != null) {
            throw new IllegalArgumentException(
                    "egress.registry.token and egress.registry.token-file: set one of them, not both");
        }
        return new RegistryAuth(token, file, readable("egress.registry.ca-certificates", caCertificates));
    }

    private static @Nullable Path readable(String property, String location) {
        if (location == null || location.isBlank()) {
            return null;
        }
        Path path = Path.of(location.strip());
        if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
            throw new IllegalArgumentException("%s: %s (expected: a readable file)".formatted(property, path));
        }
        return path;
    }

    /**
     * Whether calls carry a token.
     *
     * @return true with a token or a token file
     */
    public boolean authenticated() {
        return token != null || tokenFile != null;
    }

    @Override
    public String toString() {
        // The token never appears in logs.
        return "RegistryAuth[token=" + (token != null ? "(set)" : tokenFile != null ? "file " + tokenFile : "none")
                + ", caCertificates=" + (caCertificates == null ? "JDK defaults" : caCertificates) + "]";
    }
}
