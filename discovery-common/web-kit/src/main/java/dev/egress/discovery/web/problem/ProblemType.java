package dev.egress.discovery.web.problem;

import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;

/**
 * The one catalogue of problem types that App and Border answer with (RFC 9457 {@code type}
 * {@code urn:egress:problem:<slug>}). Clients match on the slug, so a slug never changes once
 * published; a new kind of failure is a new constant here, and nowhere else.
 *
 * <p>Each type has the status it is usually answered with. A few are answered with another one (a
 * framework error keeps the status the framework chose; Border answers an unexpected failure as 500
 * {@link #UNAVAILABLE}), so the status of one answer is part of the {@link Problem}, not of the type.
 */
public enum ProblemType {
    /** 400: the request broke a rule (the detail, and often {@code field}, name it). */
    INVALID_REQUEST(HttpStatus.BAD_REQUEST),
    /** 401: no or wrong bearer token. */
    UNAUTHORIZED(HttpStatus.UNAUTHORIZED),
    /** 403: the target is not allowed (Border's SSRF guard); {@code reason} says why. */
    TARGET_DENIED(HttpStatus.FORBIDDEN),
    /** 403 (Border): a forward without a valid App client certificate (mutual TLS is configured). */
    CLIENT_CERTIFICATE_REQUIRED(HttpStatus.FORBIDDEN),
    /** 403 (App): a tenant-bound API token used for another tenant or outside its endpoints. */
    TENANT_FORBIDDEN(HttpStatus.FORBIDDEN),
    /** 404: no endpoint answers this method and path. */
    NOT_FOUND(HttpStatus.NOT_FOUND),
    /** 404 (App): the tenant is not in the tenants file. */
    UNKNOWN_TENANT(HttpStatus.NOT_FOUND),
    /** 404: the source IP is not hosted (by this Border, or by any live Border for App's operator API). */
    IP_NOT_HOSTED(HttpStatus.NOT_FOUND),
    /** 404 (App): no durable delivery has this id (or the caller's token may not see it). */
    UNKNOWN_DELIVERY(HttpStatus.NOT_FOUND),
    /** 405: the path exists, the method does not. */
    METHOD_NOT_ALLOWED(HttpStatus.METHOD_NOT_ALLOWED),
    /** 406: the Accept header allows nothing the service writes. */
    NOT_ACCEPTABLE(HttpStatus.NOT_ACCEPTABLE),
    /** 408: the client did not send its request within the listener's deadline. */
    REQUEST_TIMEOUT(HttpStatus.REQUEST_TIMEOUT),
    /** 409 (Border): the source IP is hosted but not ACTIVE, or the Border is draining. */
    IP_NOT_ACTIVE(HttpStatus.CONFLICT),
    /** 409 (App): a durable delivery that is still pending or delivering cannot be sent again. */
    NOT_RETRYABLE(HttpStatus.CONFLICT),
    /** 413: the request body is over the cap. */
    PAYLOAD_TOO_LARGE(HttpStatus.CONTENT_TOO_LARGE),
    /** 415: the body is not declared as JSON. */
    UNSUPPORTED_MEDIA_TYPE(HttpStatus.UNSUPPORTED_MEDIA_TYPE),
    /** 422 (App): an {@code Idempotency-Key} reused for a different request. */
    IDEMPOTENCY_KEY_REUSED(HttpStatus.UNPROCESSABLE_CONTENT),
    /** 429: too many concurrent calls on a Border's IP (or on every Border that could take it). */
    TOO_MANY_REQUESTS(HttpStatus.TOO_MANY_REQUESTS),
    /** 429 (App): App's own admission limit, per tenant or global; nothing was sent. */
    TOO_MANY_IN_FLIGHT(HttpStatus.TOO_MANY_REQUESTS),
    /** 429 (App's forward proxy): a tenant's or an egress IP's open tunnels are at their limit; nothing was sent. */
    TOO_MANY_TUNNELS(HttpStatus.TOO_MANY_REQUESTS),
    /** 500 (App): a bug; reported without internals and logged once. */
    INTERNAL(HttpStatus.INTERNAL_SERVER_ERROR),
    /** 502: the target could not be reached (connect failure, reset). */
    TARGET_UNREACHABLE(HttpStatus.BAD_GATEWAY),
    /** 502 (Border): the target's name could not be resolved in time; nothing was sent. */
    DNS_FAILED(HttpStatus.BAD_GATEWAY),
    /** 502 (Border): the target answered with something that is not valid HTTP. */
    TARGET_PROTOCOL_ERROR(HttpStatus.BAD_GATEWAY),
    /** 502 (App): a Border failed in a way that may have reached the target. */
    BORDER_ERROR(HttpStatus.BAD_GATEWAY),
    /** 502 (App): a Border answered in breach of the contract (another source IP than the route's). */
    BORDER_FAULT(HttpStatus.BAD_GATEWAY),
    /** 503: the service cannot take the call now (shutting down, not ready, credentials refused). */
    UNAVAILABLE(HttpStatus.SERVICE_UNAVAILABLE),
    /** 503 (App): durable delivery is not configured ({@code egress.delivery.store.connection-string} is empty). */
    DURABLE_DELIVERY_OFF(HttpStatus.SERVICE_UNAVAILABLE),
    /** 503 (App): no live ACTIVE IP allowed for the tenant; sent with Retry-After. */
    NO_EGRESS_AVAILABLE(HttpStatus.SERVICE_UNAVAILABLE),
    /**
     * 503 (Border): App's forward arrived after the deadline it carried, so App has given up on it; the
     * target was not contacted.
     */
    DEADLINE_EXCEEDED(HttpStatus.SERVICE_UNAVAILABLE),
    /** 504: the target did not answer in time. */
    TARGET_TIMEOUT(HttpStatus.GATEWAY_TIMEOUT),
    /** 504 (App): an operator's IP change was not seen applied within the bound. */
    CHANGE_NOT_CONFIRMED(HttpStatus.GATEWAY_TIMEOUT);

    /** Prefix of every problem type URI. */
    public static final String TYPE_PREFIX = "urn:egress:problem:";

    private static final Map<String, ProblemType> BY_SLUG =
            Stream.of(values()).collect(Collectors.toUnmodifiableMap(ProblemType::slug, Function.identity()));

    private final HttpStatus status;
    private final String slug;
    private final URI type;

    ProblemType(HttpStatus status) {
        this.status = status;
        this.slug = name().toLowerCase(Locale.ROOT).replace('_', '-');
        this.type = URI.create(TYPE_PREFIX + slug);
    }

    /**
     * The stable slug clients match on.
     *
     * @return e.g. {@code no-egress-available}
     */
    public String slug() {
        return slug;
    }

    /**
     * The full type URI.
     *
     * @return {@code urn:egress:problem:<slug>}
     */
    public URI type() {
        return type;
    }

    /**
     * The status this type is answered with unless the problem says otherwise.
     *
     * @return the usual status
     */
    public HttpStatus status() {
        return status;
    }

    /**
     * The type of a slug.
     *
     * @param slug a slug as sent on the wire
     * @return the type, or null when the slug is not in the catalogue
     */
    public static @Nullable ProblemType ofSlug(String slug) {
        return slug == null ? null : BY_SLUG.get(slug);
    }

    /**
     * The slug of a type URI, whether or not the catalogue knows it (a newer peer may send a newer type).
     *
     * @param type a problem type URI as received
     * @return the slug, or null when the type is not one of ours
     */
    public static @Nullable String slugOf(String type) {
        return type != null && type.startsWith(TYPE_PREFIX) ? type.substring(TYPE_PREFIX.length()) : null;
    }
}
