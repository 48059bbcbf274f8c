package dev.egress.discovery.forward;

/**
 * The stable problem types (RFC 9457 {@code type}) shared by App and Border. A type is
 * {@code urn:egress:problem:<slug>}; clients match on the slug. Border problems also carry
 * {@value #TARGET_CONTACTED}: App moves a delivery to another Border only when it is {@code false}.
 */
public final class Problems {

    /** Prefix of every problem type. */
    public static final String TYPE_PREFIX = "urn:egress:problem:";
    /** Problem property: whether any byte of the request may have reached the target. */
    public static final String TARGET_CONTACTED = "targetContacted";
    /** Problem property: the typed SSRF denial reason. */
    public static final String REASON = "reason";

    /** 400: the request broke a rule (the detail names the field). */
    public static final String INVALID_REQUEST = "invalid-request";
    /** 401: no or wrong bearer token. */
    public static final String UNAUTHORIZED = "unauthorized";
    /** 403: the target is not allowed (SSRF guard); see {@link #REASON}. */
    public static final String TARGET_DENIED = "target-denied";
    /** 404: unknown tenant (App). */
    public static final String UNKNOWN_TENANT = "unknown-tenant";
    /** 404: the source IP is not hosted by this Border. */
    public static final String IP_NOT_HOSTED = "ip-not-hosted";
    /** 409: the source IP is hosted here but not ACTIVE, or the Border is draining. */
    public static final String IP_NOT_ACTIVE = "ip-not-active";
    /** 413: the request body is over the cap. */
    public static final String PAYLOAD_TOO_LARGE = "payload-too-large";
    /** 429: too many concurrent calls (per IP on a Border). */
    public static final String TOO_MANY_REQUESTS = "too-many-requests";
    /** 502: the target could not be reached (connect failure, reset). */
    public static final String TARGET_UNREACHABLE = "target-unreachable";
    /** 502 (Border): the target's name could not be resolved in time; nothing was sent. */
    public static final String DNS_FAILED = "dns-failed";
    /** 502 (Border): the target answered with something that is not valid HTTP (oversized headers, broken framing). */
    public static final String TARGET_PROTOCOL_ERROR = "target-protocol-error";
    /** 503: no live ACTIVE IP allowed for the tenant (App; with Retry-After). */
    public static final String NO_EGRESS_AVAILABLE = "no-egress-available";
    /** 503: the service is shutting down or not ready. */
    public static final String UNAVAILABLE = "unavailable";
    /** 504: the target did not answer in time. */
    public static final String TARGET_TIMEOUT = "target-timeout";
    /** 403: a forward without a valid App client certificate (mutual TLS is configured). */
    public static final String CLIENT_CERTIFICATE_REQUIRED = "client-certificate-required";

    private Problems() {
    }

    /**
     * The full type URI of a slug.
     *
     * @param slug a slug constant of this class
     * @return {@code urn:egress:problem:<slug>}
     */
    public static String type(String slug) {
        return TYPE_PREFIX + slug;
    }
}
