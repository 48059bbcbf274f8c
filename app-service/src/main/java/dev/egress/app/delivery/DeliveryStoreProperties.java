package dev.egress.app.delivery;

import dev.egress.discovery.files.WatchedFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Where durable deliveries are stored ({@code egress.delivery.store.*}). An empty connection string turns durable
 * delivery off: {@code Prefer: respond-async} is then ignored and the {@code /v1/deliveries/{id}} family answers
 * {@code 503 durable-delivery-off}.
 *
 * @param connectionString the YDB database, e.g. {@code grpc://127.0.0.1:2136/local}; empty for off
 * @param token            an access token for the database, or empty (never logged)
 * @param tokenFile        a file holding the access token, re-read when it changes; or empty
 * @param tablePrefix      prepended to the tables' names
 * @param sessions         the most store transactions at once
 */
@Validated
@ConfigurationProperties("egress.delivery.store")
public record DeliveryStoreProperties(
        @DefaultValue("") String connectionString,
        @DefaultValue("") String token,
        @DefaultValue("") String tokenFile,
        @DefaultValue("") String tablePrefix,
        @DefaultValue("16") int sessions) {

    /** Checks the rules. */
    public DeliveryStoreProperties {
        if (sessions < 1) {
            throw new IllegalArgumentException(
                    "egress.delivery.store.sessions: %s (expected: > 0)".formatted(sessions));
        }
        if (!token.isEmpty() && !tokenFile.isEmpty()) {
            throw new IllegalArgumentException(
                    "egress.delivery.store.token and token-file: both set (expected: at most one)");
        }
    }

    /**
     * Is durable delivery on?
     *
     * @return true when a connection string is set
     */
    public boolean enabled() {
        return !connectionString.isBlank();
    }

    /**
     * The store's credential as the SDK reads it: the fixed token, or the token file read again whenever it changed
     * (a rotated Secret is picked up without a restart), or none.
     *
     * @return the token's source, or null for anonymous access
     */
    public @Nullable Supplier<String> tokenSource() {
        if (!token.isEmpty()) {
            String fixed = token;
            return () -> fixed;
        }
        if (tokenFile.isEmpty()) {
            return null;
        }
        return WatchedFile.of(
                        "egress.delivery.store.token-file", Path.of(tokenFile), DeliveryStoreProperties::readToken)
                .checkWhenRead(Duration.ZERO);
    }

    private static String readToken(byte[] content) {
        String read = new String(content, StandardCharsets.UTF_8).strip();
        if (read.isEmpty()) {
            throw new IllegalArgumentException("the file is empty");
        }
        return read;
    }

    @Override
    public String toString() {
        return "DeliveryStoreProperties[connectionString=%s, token=%s, tokenFile=%s, tablePrefix=%s, sessions=%s]"
                .formatted(connectionString, token.isEmpty() ? "" : "(set)", tokenFile, tablePrefix, sessions);
    }
}
