package dev.egress.app.dispatch;

import dev.egress.app.config.ApiTokenFilter;
import dev.egress.app.config.TenantAccess;
import dev.egress.app.routing.Resolution;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.parameters.RequestBody;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Map;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
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
    private final int maxBytes;

    DeliveryController(
            Dispatcher dispatcher,
            DeliveryRequestParser parser,
            IdempotencyStore idempotency,
            DispatchProperties properties) {
        this.dispatcher = dispatcher;
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
                                            schema = @Schema(implementation = DeliveryRequestDocument.class))),
            responses = {
                @ApiResponse(responseCode = "200", description = "the target answered"),
                @ApiResponse(responseCode = "400", description = "invalid-request"),
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
    Mono<ResponseEntity<DeliveryResponse>> deliver(
            ServerWebExchange exchange, @RequestHeader(name = IDEMPOTENCY_KEY, required = false) String key) {
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
                    if (key == null) {
                        return dispatcher
                                .dispatch(request, dispatcher.resolve(request))
                                .map(ResponseEntity::ok);
                    }
                    String scope = exchange.getAttributeOrDefault(ApiTokenFilter.TOKEN_SCOPE_ATTRIBUTE, "anonymous");
                    String scopedKey = scope + '\n' + request.tenantId() + '\n' + key;
                    byte[] fingerprint = sha256(bytes);
                    // A repeat is answered from memory even while its tenant has no egress; a new key takes a
                    // place only once the tenant is resolved (an unknown tenant takes none, its key stays free).
                    IdempotencyStore.Result result = idempotency.replay(scopedKey, fingerprint);
                    if (result == null) {
                        Resolution resolution = dispatcher.resolve(request);
                        result =
                                idempotency.run(scopedKey, fingerprint, () -> dispatcher.dispatch(request, resolution));
                    }
                    IdempotencyStore.Result outcome = result;
                    return outcome.outcome()
                            .map(response -> outcome.replayed()
                                    ? ResponseEntity.ok()
                                            .header(REPLAYED, "true")
                                            .body(response)
                                    : ResponseEntity.ok(response));
                });
    }

    private static boolean validKey(String key) {
        if (key.isEmpty() || key.length() > 255) {
            return false;
        }
        return key.chars().allMatch(c -> c >= 0x21 && c <= 0x7e);
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every JVM", e);
        }
    }

    /**
     * The request body, for the OpenAPI document only (the controller validates raw bytes itself).
     *
     * @param tenantId the tenant
     * @param url      absolute http(s) target URL
     * @param method   HTTP method, default POST
     * @param headers  headers for the target
     * @param payload  any JSON value, sent as the request body
     */
    @Schema(name = "DeliveryRequest")
    record DeliveryRequestDocument(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, example = "acme")
            String tenantId,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, example = "https://hooks.example.com/in")
            String url,

            @Schema(
                    defaultValue = "POST",
                    allowableValues = {"POST", "PUT", "PATCH", "DELETE", "GET"})
            String method,

            Map<String, String> headers,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "any JSON value")
            Object payload) {}
}
