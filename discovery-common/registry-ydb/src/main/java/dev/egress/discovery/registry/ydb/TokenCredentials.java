package dev.egress.discovery.registry.ydb;

import dev.egress.discovery.files.WatchedFile;
import dev.egress.discovery.registry.RegistryAuth;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tech.ydb.auth.AuthIdentity;
import tech.ydb.auth.AuthProvider;

/**
 * Gives the SDK the access token for every call: the configured one, or the token file's current
 * content (a {@link WatchedFile} checked on every call, metadata first), so a token rotated by whatever
 * writes the file (a Secret update, a sidecar) is used at once. A file that cannot be read or is emptied
 * keeps the last token read. The token itself is never logged.
 */
final class TokenCredentials implements AuthProvider {

    private static final Logger log = LoggerFactory.getLogger(TokenCredentials.class);

    private final Supplier<String> token;

    private TokenCredentials(Supplier<String> token) {
        this.token = token;
    }

    /**
     * The provider for some credentials.
     *
     * @param auth the credentials
     * @return a provider, or empty for anonymous access
     * @throws IllegalStateException if the token file cannot be read or is empty (the transport build fails
     *                               and is retried)
     */
    static Optional<AuthProvider> of(RegistryAuth auth) {
        if (!auth.authenticated()) {
            return Optional.empty();
        }
        String fixed = auth.token();
        return Optional.of(new TokenCredentials(fixed != null ? () -> fixed : watch(auth.tokenFile())));
    }

    private static WatchedFile<String> watch(Path file) {
        WatchedFile<String> watched;
        try {
            watched = WatchedFile.of("egress.registry.token-file", file, TokenCredentials::token)
                    .checkWhenRead(Duration.ZERO);
        } catch (UncheckedIOException | IllegalArgumentException e) {
            throw new IllegalStateException("registry token file " + file + " cannot be read: " + e.getMessage(), e);
        }
        watched.onChange(next -> log.info("Registry access token in {} changed; using the new one", file));
        return watched;
    }

    private static String token(byte[] content) {
        String read = new String(content, StandardCharsets.UTF_8).strip();
        if (read.isEmpty()) {
            throw new IllegalArgumentException("the file is empty");
        }
        return read;
    }

    @Override
    public AuthIdentity createAuthIdentity() {
        return token::get;
    }
}
