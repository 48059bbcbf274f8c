package dev.egress.app.delivery.api;

import dev.egress.app.EgressProblemException;
import dev.egress.app.config.ApiTokenFilter;
import dev.egress.app.config.TenantAccess;
import dev.egress.app.delivery.DeliveryPage;
import dev.egress.app.delivery.DeliveryRecord;
import dev.egress.app.delivery.DeliveryStatus;
import dev.egress.app.delivery.DeliveryStore;
import dev.egress.app.delivery.NotRetryableException;
import dev.egress.discovery.web.problem.Problem;
import dev.egress.discovery.web.problem.ProblemType;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * See and steer stored deliveries: one with its attempts, a tenant's listing, and sending finished ones again (one,
 * or a tenant's window). A tenant-bound token sees only its tenant: another tenant's delivery is unknown to it
 * (404, so ids of other tenants cannot be probed), another tenant's listing is 403. With durable delivery off
 * every endpoint answers 503 {@code durable-delivery-off}.
 */
@RestController
class DeliveriesController {

    private static final int DEFAULT_LIMIT = 50;
    private static final int MAX_LIMIT = 500;

    private final ObjectProvider<DeliveryStore> stores;
    private final Clock clock = Clock.systemUTC();

    DeliveriesController(ObjectProvider<DeliveryStore> stores) {
        this.stores = stores;
    }

    @Operation(
            summary = "A durable delivery with every attempt",
            responses = {
                @ApiResponse(responseCode = "200", description = "the delivery"),
                @ApiResponse(responseCode = "404", description = "unknown-delivery"),
                @ApiResponse(responseCode = "503", description = "durable-delivery-off, or unavailable")
            })
    @GetMapping(path = "/v1/deliveries/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<DeliveryViews.Delivery> get(ServerWebExchange exchange, @PathVariable String id) {
        return blocking(store -> {
            DeliveryRecord record = visible(exchange, store, id);
            return DeliveryViews.Delivery.of(record, store.attempts(record.key()));
        });
    }

    @Operation(
            summary = "A tenant's durable deliveries, oldest first, paged",
            responses = {
                @ApiResponse(responseCode = "200", description = "one page; next is the cursor of the next one"),
                @ApiResponse(responseCode = "400", description = "invalid-request naming the parameter"),
                @ApiResponse(responseCode = "403", description = "tenant-forbidden"),
                @ApiResponse(responseCode = "503", description = "durable-delivery-off, or unavailable")
            })
    @GetMapping(path = "/v1/deliveries", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<DeliveryViews.Page> list(
            ServerWebExchange exchange,
            @Parameter(description = "the tenant (required)") @RequestParam(required = false) @Nullable String tenantId,
            @Parameter(description = "pending, delivering, delivered or dead") @RequestParam(required = false) @Nullable
                    String status,
            @Parameter(description = "accepted at or after, ISO-8601") @RequestParam(required = false) @Nullable
                    String since,
            @Parameter(description = "the previous page's next") @RequestParam(required = false) @Nullable
                    String cursor,
            @Parameter(description = "page size, 1 to 500 (default 50)") @RequestParam(required = false) @Nullable
                    Integer limit) {
        if (tenantId == null || tenantId.isBlank()) {
            return Mono.error(invalid("tenantId", "required"));
        }
        TenantAccess.check(exchange, tenantId);
        DeliveryStatus wanted = status == null ? null : statusOf("status", status);
        Instant from = since == null ? Instant.EPOCH : instantOf("since", since);
        int size = limit == null ? DEFAULT_LIMIT : limit;
        if (size < 1 || size > MAX_LIMIT) {
            return Mono.error(invalid("limit", "%s (expected: 1 to %s)".formatted(size, MAX_LIMIT)));
        }
        return blocking(store -> {
            try {
                return DeliveryViews.Page.of(store.list(tenantId, wanted, from, cursor, size));
            } catch (IllegalArgumentException e) {
                throw invalid("cursor", "expected a page's next");
            }
        });
    }

    @Operation(
            summary = "Send a delivered or dead delivery again: a new series of attempts, the same id",
            responses = {
                @ApiResponse(responseCode = "202", description = "pending again"),
                @ApiResponse(responseCode = "404", description = "unknown-delivery"),
                @ApiResponse(responseCode = "409", description = "not-retryable: it is pending or delivering"),
                @ApiResponse(responseCode = "503", description = "durable-delivery-off, or unavailable")
            })
    @PostMapping(path = "/v1/deliveries/{id}/retry", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<ResponseEntity<DeliveryViews.Accepted>> retry(ServerWebExchange exchange, @PathVariable String id) {
        return blocking(store -> {
            DeliveryRecord record = visible(exchange, store, id);
            DeliveryRecord again = store.retry(record.key(), clock.instant());
            return ResponseEntity.accepted()
                    .body(new DeliveryViews.Accepted(again.id(), again.status().wireName()));
        });
    }

    @Operation(
            summary = "Send a tenant's finished deliveries of a window again",
            description = "Body {status: dead (default) or delivered, since, until}: every such delivery accepted "
                    + "at or after since and before until starts a new series.",
            responses = {
                @ApiResponse(responseCode = "202", description = "{retried: n}"),
                @ApiResponse(responseCode = "400", description = "invalid-request naming the field"),
                @ApiResponse(responseCode = "403", description = "tenant-forbidden"),
                @ApiResponse(responseCode = "503", description = "durable-delivery-off, or unavailable")
            })
    @PostMapping(
            path = "/v1/tenants/{tenantId}/deliveries/retry",
            consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<ResponseEntity<DeliveryViews.Retried>> retryWindow(
            ServerWebExchange exchange,
            @PathVariable String tenantId,
            @RequestBody(required = false) DeliveryViews.@Nullable RetryWindow window) {
        TenantAccess.check(exchange, tenantId);
        DeliveryViews.RetryWindow w = window == null ? new DeliveryViews.RetryWindow(null, null, null) : window;
        DeliveryStatus status = w.status() == null ? DeliveryStatus.DEAD : statusOf("status", w.status());
        if (!status.finished()) {
            return Mono.error(invalid("status", "%s (expected: dead or delivered)".formatted(w.status())));
        }
        Instant since = w.since() == null ? Instant.EPOCH : w.since();
        return blocking(store -> {
            Instant until = w.until() == null ? clock.instant() : w.until();
            int retried = 0;
            String cursor = null;
            do {
                DeliveryPage page = store.list(tenantId, status, since, cursor, MAX_LIMIT);
                for (DeliveryRecord r : page.records()) {
                    if (r.createdAt().isBefore(until) && retried(store, r)) {
                        retried++;
                    }
                }
                cursor = page.next();
            } while (cursor != null);
            return ResponseEntity.accepted().body(new DeliveryViews.Retried(retried));
        });
    }

    private boolean retried(DeliveryStore store, DeliveryRecord r) {
        try {
            store.retry(r.key(), clock.instant());
            return true;
        } catch (NotRetryableException e) {
            // Sent again by someone else since the listing: not this call's.
            return false;
        }
    }

    /** The delivery, if the caller's token may see it. */
    private static DeliveryRecord visible(ServerWebExchange exchange, DeliveryStore store, String id) {
        DeliveryRecord record = store.get(id).orElseThrow(() -> DeliveryProblems.unknown(id));
        String bound = exchange.getAttribute(ApiTokenFilter.BOUND_TENANT_ATTRIBUTE);
        if (bound != null && !bound.equals(record.tenantId())) {
            throw DeliveryProblems.unknown(id);
        }
        return record;
    }

    private <T> Mono<T> blocking(StoreCall<T> call) {
        DeliveryStore store = stores.getIfAvailable();
        if (store == null) {
            return Mono.error(DeliveryProblems.off());
        }
        Callable<T> run = () -> call.on(store);
        return Mono.fromCallable(run).subscribeOn(Schedulers.boundedElastic()).onErrorMap(DeliveryProblems::of);
    }

    private static DeliveryStatus statusOf(String field, String value) {
        try {
            return DeliveryStatus.ofWire(value.toLowerCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw invalid(field, "%s (expected: pending, delivering, delivered or dead)".formatted(value));
        }
    }

    private static Instant instantOf(String field, String value) {
        try {
            return Instant.parse(value);
        } catch (DateTimeException e) {
            throw invalid(field, "%s (expected: an ISO-8601 instant such as 2026-12-01T00:00:00Z)".formatted(value));
        }
    }

    private static EgressProblemException invalid(String field, String rule) {
        return new EgressProblemException(
                Problem.of(ProblemType.INVALID_REQUEST, field + ": " + rule).with("field", field));
    }

    /** A store call, run on a worker thread (the store blocks). */
    @FunctionalInterface
    private interface StoreCall<T> {
        T on(DeliveryStore store) throws Exception;
    }
}
