package dev.egress.app.delivery.api;

import dev.egress.app.delivery.Attempt;
import dev.egress.app.delivery.DeliveryKey;
import dev.egress.app.delivery.DeliveryRecord;
import dev.egress.app.delivery.DeliveryStore;
import dev.egress.app.delivery.NewDelivery;
import dev.egress.app.delivery.NextAttempt;
import dev.egress.app.dispatch.DeliveryRequest;
import dev.egress.app.dispatch.KeyedDeliveries;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The synchronous form's {@code Idempotency-Key} in the delivery store: the same record, under the same
 * {@link DeliveryKey} (tenant and key), as the asynchronous form's, so one key is one delivery on every App whichever
 * form used it first. A synchronous record is stored leased to this App for longer than the synchronous call may
 * last, so no worker claims it while it runs, and is finished with its one attempt: delivered for a 2xx, dead
 * otherwise. Workers never send it, unless this App dies during the call: then its lease expires and a worker
 * delivers it (at least once, with the same {@code webhook-id}), as for an asynchronous record whose App died.
 */
final class SyncRecords implements KeyedDeliveries {

    private static final Logger log = LoggerFactory.getLogger(SyncRecords.class);

    /** Beyond the synchronous deadline: the time to write the outcome after the call ended. */
    private static final Duration WRITE_MARGIN = Duration.ofSeconds(30);

    private final DeliveryStore store;
    private final String owner;
    private final Duration lease;
    private final int buckets;
    private final Clock clock;

    SyncRecords(DeliveryStore store, String owner, Duration lease, int buckets, Clock clock) {
        this.store = store;
        this.owner = owner;
        this.lease = lease;
        this.buckets = buckets;
        this.clock = clock;
    }

    @Override
    public Mono<Claim> claim(DeliveryRequest request, byte[] envelope, String idempotencyKey, Duration deadline) {
        String id = UUID.randomUUID().toString();
        NewDelivery delivery = new NewDelivery(
                id,
                request.tenantId(),
                idempotencyKey,
                "sha256:" + HexFormat.of().formatHex(request.fingerprint()),
                envelope,
                Math.floorMod(id.hashCode(), buckets));
        Duration held = max(lease, deadline.plus(WRITE_MARGIN));
        return Mono.fromCallable(() -> store.accept(delivery, owner, clock.instant(), held))
                .subscribeOn(Schedulers.boundedElastic())
                .onErrorMap(DeliveryProblems::of)
                .map(accepted -> {
                    DeliveryRecord record = accepted.record();
                    return new Claim(
                            record.id(),
                            record.tenantId(),
                            idempotencyKey,
                            record.status().wireName(),
                            accepted.created());
                });
    }

    @Override
    public Mono<Void> finish(Claim claim, Finished finished) {
        return Mono.fromRunnable(() -> write(claim, finished))
                .subscribeOn(Schedulers.boundedElastic())
                .onErrorResume(e -> {
                    log.warn(
                            "Synchronous delivery {}: its outcome could not be written; a worker delivers it again "
                                    + "after its lease",
                            claim.id(),
                            e);
                    return Mono.empty();
                })
                .then();
    }

    private void write(Claim claim, Finished finished) {
        Instant now = clock.instant();
        Integer status = finished.targetStatus();
        boolean delivered = status != null && status >= 200 && status <= 299;
        Attempt attempt = new Attempt(
                finished.started(),
                finished.egressIp(),
                finished.borderId(),
                delivered ? "delivered" : "dead",
                finished.reason(),
                status,
                Duration.between(finished.started(), now).abs(),
                finished.excerpt());
        NextAttempt next = delivered ? new NextAttempt.Delivered() : new NextAttempt.Dead(false);
        store.recordAttempt(DeliveryKey.of(claim.tenantId(), claim.key(), claim.id()), owner, attempt, next, now);
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
