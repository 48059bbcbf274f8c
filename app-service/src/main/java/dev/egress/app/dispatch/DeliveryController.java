package dev.egress.app.dispatch;

import dev.egress.app.config.ApiTokenFilter;
import dev.egress.app.config.TenantAccess;
import dev.egress.app.routing.Resolution;
import dev.egress.discovery.web.problem.ProblemException;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.parameters.RequestBody;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * {@code POST /v1/deliveries}: reads the body under the size cap, validates it, applies
 * {@code Idempotency-Key}, and hands the delivery to the {@link Dispatcher}.
 */
@RestController
class DeliveryController {

    static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    static final String REPLAYED = "Idempotent-Replayed";

    private final Dispatcher dispatcher;
    private final DeliveryRequestParser parser;
    private final IdempotencyStore idempotency;
    private final ObjectProvider<AsyncDeliveries> async;
    private final ObjectProvider<KeyedDeliveries> keyed;
    private final Duration deadline;
    private final int maxBytes;

    DeliveryController(
            Dispatcher dispatcher,
            DeliveryRequestParser parser,
            IdempotencyStore idempotency,
            DispatchProperties properties,
            ObjectProvider<AsyncDeliveries> async,
            ObjectProvider<KeyedDeliveries> keyed) {
        this.dispatcher = dispatcher;
        this.async = async;
        this.keyed = keyed;
        this.deadline = properties.overallTimeout();
        this.parser = parser;
        this.idempotency = idempotency;
        this.maxBytes = (int)
                Math.min(Integer.MAX_VALUE - 8, properties.maxRequestSize().toBytes());
    }

    @Operation(
            summary = "Deliver a webhook from the tenant's egress IPs",
            description =
                    "Routes tenant -> allowed IP -> live Border and returns the target's answer (any HTTP status). "
                            + "Errors are application/problem+json with type urn:egress:problem:<slug>.",
            requestBody =
                    @RequestBody(
                            required = true,
                            content =
                                    @Content(
                                            mediaType = MediaType.APPLICATION_JSON_VALUE,
                                            schema = @Schema(implementation = DeliveryRequestDocument.class),
                                            examples = {
                                                @ExampleObject(
                                                        name = "payload",
                                                        summary = "JSON, sent byte for byte",
                                                        value = "{\"tenantId\":\"acme\",\"url\":"
                                                                + "\"https://hooks.example.com/in\",\"payload\":"
                                                                + "{\"amount\": 0.30000000000000000001, \"e\": 1E+2}}"),
                                                @ExampleObject(
                                                        name = "form",
                                                        summary = "a form-encoded body as text",
                                                        value = "{\"tenantId\":\"acme\",\"url\":"
                                                                + "\"https://hooks.example.com/in\",\"headers\":"
                                                                + "{\"Content-Type\":"
                                                                + "\"application/x-www-form-urlencoded\"},"
                                                                + "\"body\":\"a=1&b=%C3%A9\"}"),
                                                @ExampleObject(
                                                        name = "bytes",
                                                        summary = "any bytes, base64-encoded",
                                                        value = "{\"tenantId\":\"acme\",\"url\":"
                                                                + "\"https://hooks.example.com/in\",\"headers\":"
                                                                + "{\"Content-Type\":\"application/xml\"},"
                                                                + "\"bodyBase64\":\"PGEvPg==\"}")
                                            })),
            responses = {
                @ApiResponse(
                        responseCode = "200",
                        description = "the target answered",
                        content = @Content(schema = @Schema(implementation = DeliveryResponse.class))),
                @ApiResponse(
                        responseCode = "202",
                        description = "with Prefer: respond-async and durable delivery on: stored, to be delivered "
                                + "with retries; Location names the delivery, body {id, status}",
                        content = @Content(schema = @Schema(implementation = AcceptedDocument.class))),
                @ApiResponse(
                        responseCode = "303",
                        description = "without Prefer and durable delivery on: the Idempotency-Key already names a "
                                + "delivery (made on another App, before a restart, or by the asynchronous form); "
                                + "nothing was sent; Location names it, header Idempotent-Replayed: true, "
                                + "body {id, status}",
                        content = @Content(schema = @Schema(implementation = AcceptedDocument.class))),
                @ApiResponse(
                        responseCode = "400",
                        description = "invalid-request, naming the field (e.g. headers.X-Sig for a value with a "
                                + "control character, or payload,body when two body forms are given)"),
                @ApiResponse(responseCode = "401", description = "unauthorized"),
                @ApiResponse(
                        responseCode = "403",
                        description = "target-denied (with reason), or tenant-forbidden "
                                + "(a tenant-bound token used for another tenant)"),
                @ApiResponse(responseCode = "404", description = "unknown-tenant"),
                @ApiResponse(responseCode = "413", description = "payload-too-large"),
                @ApiResponse(
                        responseCode = "415",
                        description = "unsupported-media-type: Content-Type is not application/json"),
                @ApiResponse(responseCode = "422", description = "idempotency-key-reused"),
                @ApiResponse(
                        responseCode = "429",
                        description = "too-many-in-flight (App's admission limits) or "
                                + "too-many-requests (every Border at its limit), with Retry-After"),
                @ApiResponse(responseCode = "502", description = "target-unreachable or border-error"),
                @ApiResponse(responseCode = "503", description = "no-egress-available, with Retry-After"),
                @ApiResponse(responseCode = "504", description = "target-timeout")
            })
    @PostMapping(
            path = "/v1/deliveries",
            consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<ResponseEntity<Object>> deliver(
            ServerWebExchange exchange,
            @RequestHeader(name = IDEMPOTENCY_KEY, required = false) String key,
            @Parameter(description = "respond-async: store the delivery and answer 202 at once (durable delivery)")
                    @RequestHeader(name = "Prefer", required = false)
                    String prefer) {
        // The body is always read through the capped join, even when Content-Length already says it is
        // too large: the join stops at the cap and releases what it read, so no buffer is left behind.
        return DataBufferUtils.join(exchange.getRequest().getBody(), maxBytes)
                .onErrorMap(DataBufferLimitException.class, e -> new PayloadTooLargeException(maxBytes))
                .map(buffer -> {
                    byte[] bytes = new byte[buffer.readableByteCount()];
                    buffer.read(bytes);
                    DataBufferUtils.release(buffer);
                    return bytes;
                })
                .defaultIfEmpty(new byte[0])
                .flatMap(bytes -> {
                    if (key != null && !validKey(key)) {
                        throw new InvalidRequestException(IDEMPOTENCY_KEY, "expected 1..255 visible ASCII characters");
                    }
                    DeliveryRequest request = parser.parse(bytes);
                    TenantAccess.check(exchange, request.tenantId());
                    AsyncDeliveries durable = respondAsync(prefer) ? async.getIfAvailable() : null;
                    if (durable != null) {
                        return durable.accept(request, bytes, key);
                    }
                    if (key == null) {
                        return dispatcher
                                .dispatch(request, dispatcher.resolve(request))
                                .map(ResponseEntity::<Object>ok);
                    }
                    return keyed(exchange, request, bytes, key);
                });
    }

    private Mono<ResponseEntity<Object>> keyed(
            ServerWebExchange exchange, DeliveryRequest request, byte[] envelope, String key) {
        String scope = exchange.getAttributeOrDefault(ApiTokenFilter.TOKEN_SCOPE_ATTRIBUTE, "anonymous");
        String scopedKey = scope + '\n' + request.tenantId() + '\n' + key;
        // The digest of what the target would receive, not of the request's spelling.
        byte[] fingerprint = request.fingerprint();
        // A repeat is answered from memory even while its tenant has no egress; a new key takes a
        // place only once the tenant is resolved (an unknown tenant takes none, its key stays free).
        IdempotencyStore.Result result = idempotency.replay(scopedKey, fingerprint);
        if (result == null) {
            Resolution resolution = dispatcher.resolve(request);
            KeyedDeliveries shared = keyed.getIfAvailable();
            Supplier<Mono<DeliveryResponse>> delivery = shared == null
                    ? () -> dispatcher.dispatch(request, resolution)
                    : () -> recorded(shared, request, envelope, key, resolution);
            result = idempotency.run(scopedKey, fingerprint, delivery);
        }
        IdempotencyStore.Result outcome = result;
        return outcome.outcome()
                .map(response -> outcome.replayed()
                        ? ResponseEntity.ok().header(REPLAYED, "true").<Object>body(response)
                        : ResponseEntity.<Object>ok(response))
                .onErrorResume(RecordedElsewhereException.class, e -> Mono.just(seeOther(e.claim())));
    }

    /**
     * Durable delivery on: the key is recorded in the store before anything is sent, so it means one delivery on
     * every App. A key another App (or the asynchronous form) recorded first sends nothing; a new record gets the
     * attempt's outcome written on every path, so no worker sends it again.
     */
    private Mono<DeliveryResponse> recorded(
            KeyedDeliveries shared, DeliveryRequest request, byte[] envelope, String key, Resolution resolution) {
        return shared.claim(request, envelope, key, deadline).flatMap(claim -> {
            if (!claim.created()) {
                return Mono.error(new RecordedElsewhereException(claim));
            }
            Instant started = Instant.now();
            return dispatcher
                    .dispatch(request, resolution, claim.id())
                    .flatMap(response ->
                            shared.finish(claim, answered(started, response)).thenReturn(response))
                    .onErrorResume(e -> shared.finish(claim, failed(started, e)).then(Mono.<DeliveryResponse>error(e)));
        });
    }

    private static KeyedDeliveries.Finished answered(Instant started, DeliveryResponse response) {
        DeliveryResponse.TargetResponse target = response.response();
        return new KeyedDeliveries.Finished(
                started, target.status(), response.egressIp(), response.borderId(), null, target.body());
    }

    private static KeyedDeliveries.Finished failed(Instant started, Throwable error) {
        String ip = null;
        String border = null;
        String reason = "internal-error";
        if (error instanceof ProblemException problem) {
            reason = problem.slug();
            if (problem.properties().get("attempts") instanceof List<?> attempts
                    && !attempts.isEmpty()
                    && attempts.get(attempts.size() - 1) instanceof DeliveryResponse.Attempt last) {
                ip = last.egressIp();
                border = last.borderId();
            }
        }
        return new KeyedDeliveries.Finished(started, null, ip, border, reason, null);
    }

    /** The key names a durable record: the caller is sent to it, and nothing was sent. */
    private static ResponseEntity<Object> seeOther(KeyedDeliveries.Claim claim) {
        return ResponseEntity.status(HttpStatus.SEE_OTHER)
                .location(URI.create("/v1/deliveries/" + claim.id()))
                .header(REPLAYED, "true")
                .body(Map.of("id", claim.id(), "status", claim.status()));
    }

    /** RFC 7240: preferences are comma-separated tokens, each with optional parameters; names are case-insensitive. */
    static boolean respondAsync(String prefer) {
        if (prefer == null) {
            return false;
        }
        for (String preference : prefer.split(",")) {
            String name = preference.split(";", 2)[0].split("=", 2)[0].strip();
            if (name.equalsIgnoreCase("respond-async")) {
                return true;
            }
        }
        return false;
    }

    private static boolean validKey(String key) {
        if (key.isEmpty() || key.length() > 255) {
            return false;
        }
        return key.chars().allMatch(c -> c >= 0x21 && c <= 0x7e);
    }

    /**
     * The {@code 202} answer, for the OpenAPI document only.
     *
     * @param id     the delivery's id
     * @param status where it stands: pending, delivering, delivered or dead
     */
    @Schema(name = "DeliveryAccepted")
    record AcceptedDocument(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            String id,

            @Schema(
                    requiredMode = Schema.RequiredMode.REQUIRED,
                    allowableValues = {"pending", "delivering", "delivered", "dead"})
            String status) {}

    /**
     * The request body, for the OpenAPI document only (the controller validates raw bytes itself).
     *
     * @param tenantId   the tenant
     * @param url        absolute http(s) target URL
     * @param method     HTTP method, default POST
     * @param headers    headers for the target
     * @param payload    any JSON value, sent as the request body byte for byte
     * @param body       a text body, sent as its UTF-8 bytes
     * @param bodyBase64 any body, base64-encoded
     */
    @Schema(
            name = "DeliveryRequest",
            description = "Exactly one body form: payload, body or bodyBase64 (GET and DELETE may give none). "
                    + "Without a Content-Type header the target gets application/json for payload, "
                    + "text/plain; charset=utf-8 for body, application/octet-stream for bodyBase64.")
    record DeliveryRequestDocument(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, example = "acme")
            String tenantId,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, example = "https://hooks.example.com/in")
            String url,

            @Schema(
                    defaultValue = "POST",
                    allowableValues = {"POST", "PUT", "PATCH", "DELETE", "GET"})
            String method,

            @Schema(
                    description = "Header names are HTTP tokens; a value has no control character but HTAB inside, "
                            + "no DEL, no leading space or tab, nothing above U+00FF (else 400 naming the header)")
            Map<String, String> headers,

            @Schema(
                    description = "any JSON value; the target receives its bytes exactly as they stand in this "
                            + "request (numbers, escapes and whitespace unchanged)")
            Object payload,

            @Schema(description = "a text body, sent as its UTF-8 bytes", example = "a=1&b=2")
            String body,

            @Schema(
                    description = "any bytes, standard base64 with padding (RFC 4648 section 4)",
                    format = "byte",
                    example = "PGEvPg==")
            String bodyBase64) {}
}
