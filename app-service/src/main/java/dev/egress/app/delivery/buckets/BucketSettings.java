package dev.egress.app.delivery.buckets;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import tech.ydb.auth.AuthProvider;

/**
 * Where and how an App holds its buckets.
 *
 * @param connectionString the delivery store's database, e.g. {@code grpc://127.0.0.1:2136/local}
 * @param token            the store's access token, read on every call (a rotated token file is used at once), or
 *                         null for anonymous access
 * @param node             the coordination node, relative to the database
 * @param count            the buckets
 * @param workerId         this App, the data of its membership
 * @param sessionTimeout   how long the node keeps a silent App's buckets
 * @param checkInterval    how often the App counts the live Apps and moves towards its share
 */
public record BucketSettings(
        String connectionString,
        @Nullable Supplier<String> token,
        String node,
        int count,
        String workerId,
        Duration sessionTimeout,
        Duration checkInterval) {

    /** Validates. */
    public BucketSettings {
        Objects.requireNonNull(connectionString, "connectionString");
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(workerId, "workerId");
        if (count < 1) {
            throw new IllegalArgumentException("egress.delivery.buckets.count: %s (expected: > 0)".formatted(count));
        }
        if (sessionTimeout.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException(
                    "egress.delivery.buckets.session-timeout: %s (expected: >= 1s)".formatted(sessionTimeout));
        }
        if (checkInterval.isNegative() || checkInterval.isZero()) {
            throw new IllegalArgumentException(
                    "egress.delivery.buckets.check-interval: %s (expected: > 0)".formatted(checkInterval));
        }
    }

    /** The SDK's credentials, or empty for anonymous access. */
    Optional<AuthProvider> credentials() {
        Supplier<String> current = token;
        if (current == null) {
            return Optional.empty();
        }
        AuthProvider provider = () -> current::get;
        return Optional.of(provider);
    }
}
