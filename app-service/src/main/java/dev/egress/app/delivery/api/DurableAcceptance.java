package dev.egress.app.delivery.api;

import dev.egress.app.delivery.DeliveryRecord;
import dev.egress.app.delivery.DeliveryStore;
import dev.egress.app.delivery.NewDelivery;
import dev.egress.app.delivery.worker.DeliveryWorkers;
import dev.egress.app.delivery.worker.DurableMetrics;
import dev.egress.app.dispatch.AsyncDeliveries;
import dev.egress.app.dispatch.DeliveryRequest;
import dev.egress.app.signing.WebhookSigner;
import dev.egress.app.tenants.TenantPolicyStore;
import dev.egress.app.tenants.UnknownTenantException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.ResponseEntity;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Accepts a delivery for durable delivery: the last checks that need the tenant (it exists; a signing tenant has a
 * secret), then one store transaction that either stores the record, already leased to this App, or finds the
 * record the tenant's {@code Idempotency-Key} already names (on any App). A new record's first attempt starts at
 * once on this App; the answer does not wait for it.
 */
final class DurableAcceptance implements AsyncDeliveries {

    /** The header that marks a repeat of an {@code Idempotency-Key}, as the synchronous form sends it. */
    static final String REPLAYED = "Idempotent-Replayed";

    private final DeliveryStore store;
    private final DeliveryWorkers workers;
    private final TenantPolicyStore tenants;
    private final WebhookSigner signer;
    private final DurableMetrics metrics;
    private final String owner;
    private final Duration lease;
    private final int buckets;
    private final Clock clock;

    DurableAcceptance(
            DeliveryStore store,
            DeliveryWorkers workers,
            TenantPolicyStore tenants,
            WebhookSigner signer,
            DurableMetrics metrics,
            String owner,
            Duration lease,
            int buckets,
            Clock clock) {
        this.store = store;
        this.workers = workers;
        this.tenants = tenants;
        this.signer = signer;
        this.metrics = metrics;
        this.owner = owner;
        this.lease = lease;
        this.buckets = buckets;
        this.clock = clock;
    }

    @Override
    public Mono<ResponseEntity<Object>> accept(
            DeliveryRequest request, byte[] envelope, @Nullable String idempotencyKey) {
        if (!tenants.current().tenants().containsKey(request.tenantId())) {
            TenantPolicyStore.State policy = tenants.state();
            return Mono.error(
                    policy.valid()
                            ? new UnknownTenantException(request.tenantId())
                            : new UnknownTenantException(request.tenantId(), policy));
        }
        String id = UUID.randomUUID().toString();
        // A signing tenant without a secret would fail every attempt: refused now, as the synchronous form does.
        signer.sign(request.tenantId(), id, request.headers(), request.body());
        NewDelivery delivery = new NewDelivery(
                id,
                request.tenantId(),
                idempotencyKey,
                "sha256:" + HexFormat.of().formatHex(request.fingerprint()),
                envelope,
                Math.floorMod(id.hashCode(), buckets));
        return Mono.fromCallable(() -> store.accept(delivery, owner, clock.instant(), lease))
                .subscribeOn(Schedulers.boundedElastic())
                .onErrorMap(DeliveryProblems::of)
                .map(accepted -> {
                    DeliveryRecord record = accepted.record();
                    ResponseEntity.BodyBuilder answer = ResponseEntity.accepted()
                            .location(URI.create("/v1/deliveries/" + record.id()))
                            .header("Preference-Applied", "respond-async");
                    if (accepted.created()) {
                        metrics.accepted(record.tenantId());
                        workers.startNow(record);
                    } else {
                        answer.header(REPLAYED, "true");
                    }
                    return answer.body(
                            Map.of("id", record.id(), "status", record.status().wireName()));
                });
    }
}
