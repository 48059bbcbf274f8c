package dev.egress.app.dispatch;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.egress.app.EgressProblemException;
import dev.egress.discovery.files.hash.Sha256;
import dev.egress.discovery.web.problem.ProblemType;
import dev.egress.discovery.web.problem.TargetContact;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Remembers deliveries by {@code Idempotency-Key} (the caller scopes keys per API token, by its digest, and tenant), in
 * memory, for a window, bounded in bytes. A repeat gets the first outcome without sending again; a
 * concurrent repeat waits for the first. Once started, a delivery runs to completion even if its client
 * goes away, so its outcome is there for the retry.
 *
 * <p>Only outcomes where the target was contacted are kept: the delivered answer, and failures that may
 * have reached it (target timeout, a Border failing after sending). Everything that certainly sent
 * nothing — no egress, a busy Border or App, a denied target — is forgotten, so the client's retry
 * really tries again. The caller resolves the tenant before it calls {@link #run}, so requests for
 * unknown tenants never take a place here and cannot evict other tenants' keys.
 *
 * <p>Memory: each entry is weighed (key, fingerprint, headers, body, attempts) and the cache is capped
 * at {@code max-size}; the kept body is cut at {@code max-body-size} and its digest kept instead.
 */
final class IdempotencyStore {

    /** Rough cost of an entry's objects beyond its strings (entry, future, records, cache node). */
    static final int ENTRY_OVERHEAD = 512;

    private static final int ATTEMPT_WEIGHT = 160;

    /**
     * A remembered key: the request's fingerprint and its outcome (pending while the delivery runs).
     *
     * @param fingerprint digest of the request body
     * @param outcome     the delivery's result; completed exceptionally for a remembered failure
     * @param weight      estimated bytes of the outcome
     */
    private record Entry(byte[] fingerprint, CompletableFuture<DeliveryResponse> outcome, int weight) {}

    /**
     * A stored or fresh outcome.
     *
     * @param outcome  the delivery's result
     * @param replayed true when it is the outcome of an earlier request with the same key
     */
    record Result(Mono<DeliveryResponse> outcome, boolean replayed) {}

    private final Cache<String, Entry> entries;
    private final int maxBodyBytes;
    private final Counter replays;

    IdempotencyStore(DispatchProperties.Idempotency properties, LongSupplier nanoTime, MeterRegistry meters) {
        this.maxBodyBytes = (int) properties.maxBodySize().toBytes();
        this.entries = Caffeine.newBuilder()
                .maximumWeight(properties.maxSize().toBytes())
                .weigher((String key, Entry entry) -> 2 * key.length() + entry.fingerprint().length + entry.weight())
                // Written again when the outcome is known, so the window runs from the end of the delivery.
                .expireAfterWrite(properties.window())
                .ticker(nanoTime::getAsLong)
                // Maintenance on the writing thread: the bound holds when a write returns, no pool needed.
                .executor(Runnable::run)
                .build();
        this.replays = Counter.builder("egress.delivery.idempotent.replays")
                .description("Deliveries answered from the idempotency store")
                .register(meters);
        Gauge.builder("egress.delivery.idempotency.keys", this, IdempotencyStore::size)
                .description("Idempotency keys remembered")
                .register(meters);
        Gauge.builder("egress.delivery.idempotency.bytes", this, IdempotencyStore::weight)
                .description("Estimated memory of the remembered outcomes")
                .baseUnit("bytes")
                .register(meters);
    }

    /**
     * The remembered outcome of a key, without taking a place: asked before the tenant is resolved, so
     * that a repeat is answered even while its tenant has no egress.
     *
     * @param key         scope and key
     * @param fingerprint digest of the request body
     * @return the replayed outcome (or the key-reuse problem), or null when the key is not remembered
     */
    @Nullable
    Result replay(String key, byte[] fingerprint) {
        Entry existing = entries.getIfPresent(key);
        return existing == null ? null : replay(existing, fingerprint);
    }

    private Result replay(Entry existing, byte[] fingerprint) {
        if (!MessageDigest.isEqual(existing.fingerprint(), fingerprint)) {
            return new Result(
                    Mono.error(new EgressProblemException(
                            ProblemType.IDEMPOTENCY_KEY_REUSED,
                            "this Idempotency-Key was used for a different request")),
                    false);
        }
        replays.increment();
        return new Result(Mono.fromFuture(existing.outcome(), true), true);
    }

    /**
     * Runs a delivery once per key.
     *
     * @param key         scope and key (the tenant already resolved)
     * @param fingerprint digest of the request body, to detect reuse of a key for another request
     * @param delivery    starts the delivery
     * @return the outcome, and whether it was replayed
     */
    Result run(String key, byte[] fingerprint, Supplier<Mono<DeliveryResponse>> delivery) {
        Entry pending = new Entry(fingerprint, new CompletableFuture<>(), ENTRY_OVERHEAD);
        Entry existing = entries.asMap().putIfAbsent(key, pending);
        if (existing != null) {
            return replay(existing, fingerprint);
        }
        CompletableFuture<DeliveryResponse> future = pending.outcome();
        // Subscribed here, not by the client: a disconnect must not cancel a delivery others may wait for.
        // Deferred: a supplier that throws becomes an error that frees the key, never a pending entry forever.
        Mono.defer(delivery)
                .subscribe(
                        response -> {
                            DeliveryResponse kept = cut(response);
                            entries.asMap()
                                    .replace(
                                            key,
                                            pending,
                                            new Entry(
                                                    fingerprint, CompletableFuture.completedFuture(kept), weigh(kept)));
                            future.complete(response);
                        },
                        error -> {
                            if (contactedTarget(error)) {
                                EgressProblemException problem = (EgressProblemException) error;
                                entries.asMap()
                                        .replace(
                                                key,
                                                pending,
                                                new Entry(
                                                        fingerprint,
                                                        CompletableFuture.failedFuture(problem),
                                                        weigh(problem)));
                            } else {
                                entries.asMap().remove(key, pending);
                            }
                            future.completeExceptionally(error);
                        },
                        () -> {
                            if (!future.isDone()) {
                                entries.asMap().remove(key, pending);
                                future.completeExceptionally(
                                        new IllegalStateException("delivery completed without an outcome"));
                            }
                        });
        return new Result(Mono.fromFuture(future, true), false);
    }

    /** Failures that may have reached the target are part of the outcome; the others are not kept. */
    private static boolean contactedTarget(Throwable error) {
        return error instanceof EgressProblemException problem && problem.targetContact() == TargetContact.POSSIBLE;
    }

    /** The answer as kept: the body cut at the cap on a character boundary, with the whole body's digest. */
    private DeliveryResponse cut(DeliveryResponse response) {
        DeliveryResponse.TargetResponse target = response.response();
        if (target == null || target.body() == null) {
            return response;
        }
        byte[] body = target.body().getBytes(StandardCharsets.UTF_8);
        if (body.length <= maxBodyBytes) {
            return response;
        }
        int end = maxBodyBytes;
        while (end > 0 && (body[end] & 0xC0) == 0x80) {
            end--; // never split a UTF-8 sequence: step back to the start of the cut character
        }
        String kept = end == 0 ? null : new String(body, 0, end, StandardCharsets.UTF_8);
        return response.withResponse(new DeliveryResponse.TargetResponse(
                target.status(),
                target.latencyMs(),
                target.headers(),
                kept,
                Boolean.TRUE,
                HexFormat.of().formatHex(sha256(body))));
    }

    private static int weigh(DeliveryResponse response) {
        long chars = length(response.id())
                + length(response.tenantId())
                + length(response.egressIp())
                + length(response.borderId());
        DeliveryResponse.TargetResponse target = response.response();
        if (target != null) {
            chars += length(target.body()) + length(target.bodySha256());
            for (Map.Entry<String, String> header : target.headers().entrySet()) {
                chars += length(header.getKey()) + length(header.getValue()) + 32;
            }
        }
        return saturate(ENTRY_OVERHEAD + 2 * chars + attemptsWeight(response.attempts()));
    }

    private static int weigh(EgressProblemException problem) {
        long weight = ENTRY_OVERHEAD + 2L * length(problem.getMessage());
        for (Object value : problem.properties().values()) {
            weight += value instanceof List<?> list
                    ? (long) list.size() * ATTEMPT_WEIGHT
                    : 2L * length(String.valueOf(value)) + 32;
        }
        return saturate(weight);
    }

    private static long attemptsWeight(List<DeliveryResponse.Attempt> attempts) {
        return attempts == null ? 0 : (long) attempts.size() * ATTEMPT_WEIGHT;
    }

    private static long length(String text) {
        return text == null ? 0 : text.length();
    }

    private static int saturate(long weight) {
        return (int) Math.min(Integer.MAX_VALUE, weight);
    }

    private static byte[] sha256(byte[] bytes) {
        return Sha256.of(bytes);
    }

    /**
     * Keys remembered now (pending and completed).
     *
     * @return the count after expired entries are dropped
     */
    long size() {
        entries.cleanUp();
        return entries.estimatedSize();
    }

    /**
     * Estimated memory of the remembered outcomes.
     *
     * @return bytes, as weighed
     */
    long weight() {
        entries.cleanUp();
        return entries.policy().eviction().map(e -> e.weightedSize().orElse(0L)).orElse(0L);
    }

    /**
     * Whether a key is remembered now.
     *
     * @param key scope and key
     * @return true when a repeat would be replayed
     */
    boolean contains(String key) {
        return entries.getIfPresent(key) != null;
    }
}
