package dev.egress.app.delivery.buckets;

import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The delivery store's connection and credential ({@code egress.delivery.store.*}), as bucket ownership reads them:
 * it holds its semaphores on the store's database with the store's credential, not the registry's (App's registry
 * credential may be read-only). The store's own settings ({@code table-prefix}, {@code sessions}) are read where the
 * store is opened.
 *
 * @param connectionString the database, e.g. {@code grpc://127.0.0.1:2136/local}; empty: durable delivery is off
 * @param token            an access token, or null
 * @param tokenFile        a file holding the access token, re-read when it changes, or null
 */
@ConfigurationProperties("egress.delivery.store")
public record StoreAccess(
        @DefaultValue("") String connectionString,
        @Nullable String token,
        @Nullable Path tokenFile) {

    /** Refuses both a token and a token file. */
    public StoreAccess {
        if (token != null && !token.isBlank() && tokenFile != null) {
            throw new IllegalArgumentException(
                    "egress.delivery.store.token and egress.delivery.store.token-file: both set (expected: one)");
        }
    }

    @Override
    public String toString() {
        return "StoreAccess[connectionString=%s, token=%s, tokenFile=%s]"
                .formatted(connectionString, token == null ? "none" : "(set)", tokenFile);
    }
}
