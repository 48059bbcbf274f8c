package dev.egress.discovery.registry.ydb;

import dev.egress.discovery.registry.RegistryAuth;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tech.ydb.auth.AuthIdentity;
import tech.ydb.auth.AuthProvider;

/**
 * Gives the SDK the access token for every call: the configured one, or the token file's current
 * content, so a token rotated by whatever writes the file (a Secret update, a sidecar) is used at once.
 * A file that cannot be read keeps the last token read. The token itself is never logged.
 */
final class TokenCredentials implements AuthProvider {

    private static final Logger log = LoggerFactory.getLogger(TokenCredentials.class);

    private final String token;
    private final Path file;
    private final AtomicReference<String> lastRead = new AtomicReference<>();

    private TokenCredentials(String token, Path file) {
        this.token = token;
        this.file = file;
    }

    /**
     * The provider for some credentials.
     *
     * @param auth the credentials
     * @return a provider, or empty for anonymous access
     */
    static Optional<AuthProvider> of(RegistryAuth auth) {
        if (!auth.authenticated()) {
            return Optional.empty();
        }
        return Optional.of(new TokenCredentials(auth.token(), auth.tokenFile()));
    }

    @Override
    public AuthIdentity createAuthIdentity() {
        return this::current;
    }

    private String current() {
        if (token != null) {
            return token;
        }
        String previous = lastRead.get();
        try {
            String read = Files.readString(file).strip();
            if (read.isEmpty()) {
                throw new IOException("the file is empty");
            }
            if (!read.equals(previous) && lastRead.getAndSet(read) != null) {
                log.info("Registry access token in {} changed; using the new one", file);
            }
            return read;
        } catch (IOException e) {
            if (previous == null) {
                throw new IllegalStateException(
                        "registry token file " + file + " cannot be read: " + e.getMessage(), e);
            }
            log.warn("Registry token file {} cannot be read ({}); keeping the last token read", file, e.getMessage());
            return previous;
        }
    }
}
