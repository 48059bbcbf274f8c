package dev.egress.app.dispatch;

import dev.egress.app.EgressProblemException;
import dev.egress.app.routing.NoEgressAvailableException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.springframework.http.HttpStatus;
import reactor.core.publisher.Mono;

/**
 * Remembers deliveries by {@code Idempotency-Key} (scoped per API token and tenant) for a window, in
 * memory, bounded (oldest evicted first). A repeat gets the first outcome without sending again; a
 * concurrent repeat waits for the first. Once started, a delivery runs to completion even if its client
 * goes away, so its outcome is there for the retry. Outcomes that certainly sent nothing (no egress,
 * Border busy, invalid) are forgotten, so that the client's retry actually tries again.
 */
final class IdempotencyStore {

    /** Problem slug: the key was reused with a different request. */
    static final String KEY_REUSED = "idempotency-key-reused";

    private record Entry(CompletableFuture<DeliveryResponse> outcome, byte[] fingerprint, long expiresAtNanos) {
    }

    /**
     * A stored or fresh outcome.
     *
     * @param outcome  the delivery's result
     * @param replayed true when it is the outcome of an earlier request with the same key
     */
    record Result(Mono<DeliveryResponse> outcome, boolean replayed) {
    }

    private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>();
    private final long windowNanos;
    private final int maxEntries;
    private final LongSupplier nanoTime;
    private final Counter replays;

    IdempotencyStore(Duration window, int maxEntries, LongSupplier nanoTime, MeterRegistry meters) {
        this.windowNanos = window.toNanos();
        this.maxEntries = maxEntries;
        this.nanoTime = nanoTime;
        this.replays = Counter.builder("egress.delivery.idempotent.replays")
                .description("Deliveries answered from the idempotency store").register(meters);
        Gauge.builder("egress.delivery.idempotency.keys", this, IdempotencyStore::size)
                .description("Idempotency keys remembered").register(meters);
    }

    /**
     * Runs a delivery once per key.
     *
     * @param key         scope and key
     * @param fingerprint digest of the request body, to detect reuse of a key for another request
     * @param delivery    starts the delivery
     * @return the outcome, and whether it was replayed
     */
    Result run(String key, byte[] fingerprint, Supplier<Mono<DeliveryResponse>> delivery) {
        CompletableFuture<DeliveryResponse> future;
        Entry entry;
        synchronized (this) {
            long now = nanoTime.getAsLong();
            evictExpired(now);
            Entry existing = entries.get(key);
            if (existing != null) {
                if (!java.security.MessageDigest.isEqual(existing.fingerprint(), fingerprint)) {
                    return new Result(Mono.error(new EgressProblemException(HttpStatus.UNPROCESSABLE_CONTENT, KEY_REUSED,
                            "this Idempotency-Key was used for a different request", Map.of())), false);
                }
                replays.increment();
                return new Result(Mono.fromFuture(existing.outcome(), true), true);
            }
            future = new CompletableFuture<>();
            entry = new Entry(future, fingerprint, now + windowNanos);
            entries.put(key, entry);
            while (entries.size() > maxEntries) {
                Iterator<Entry> oldest = entries.values().iterator();
                oldest.next();
                oldest.remove();
            }
        }
        // Subscribed here, not by the client: a disconnect must not cancel a delivery others may wait for.
        delivery.get().subscribe(future::complete, error -> {
            if (!remembered(error)) {
                forget(key, entry);
            }
            future.completeExceptionally(error);
        }, () -> {
            if (!future.isDone()) {
                future.completeExceptionally(new IllegalStateException("delivery completed without an outcome"));
            }
        });
        return new Result(Mono.fromFuture(future, true), false);
    }

    /** Failures that may have reached the target are part of the outcome; the others are not kept. */
    private static boolean remembered(Throwable error) {
        if (error instanceof NoEgressAvailableException || !(error instanceof EgressProblemException problem)) {
            return false;
        }
        Object contacted = problem.properties().get(dev.egress.discovery.forward.Problems.TARGET_CONTACTED);
        return !Boolean.FALSE.equals(contacted) || problem.status() == HttpStatus.FORBIDDEN;
    }

    private synchronized void forget(String key, Entry entry) {
        entries.remove(key, entry);
    }

    private void evictExpired(long now) {
        // Insertion order is expiry order (one window for all), so stop at the first live entry.
        Iterator<Entry> it = entries.values().iterator();
        while (it.hasNext()) {
            if (it.next().expiresAtNanos() - now > 0) {
                break;
            }
            it.remove();
        }
    }

    synchronized int size() {
        return entries.size();
    }
}
