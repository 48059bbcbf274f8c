package dev.egress.discovery.registry;

import java.util.Locale;

/**
 * Why App refused a registry owner's announcement. A closed set: each reason is a metric tag and a
 * field of {@code GET /v1/egress/ips}'s {@code rejected} list.
 */
public enum RejectionReason {
    /** Not a valid payload (codec rules: JSON, size, fields) or envelope. */
    MALFORMED,
    /** A bare announcement where a signed one is required. */
    UNSIGNED,
    /** The certificate chain does not lead to the Border CA, or is expired or not yet valid. */
    UNTRUSTED_CERTIFICATE,
    /** The signature does not verify with the certificate's key over the carried bytes. */
    BAD_SIGNATURE,
    /** The certificate names another Border (or none) than the announcement's {@code borderId}. */
    IDENTITY_MISMATCH,
    /** {@code publishedAt} lies further in the future than the allowed clock skew. */
    PUBLISHED_IN_FUTURE,
    /** The endpoint is {@code http}: App would send tokens and webhooks in plaintext. */
    PLAINTEXT_ENDPOINT,
    /**
     * The announcement claims an IP (or bind address) that is not among the IP SANs of the Border's
     * certificate: the credential does not authorise it, so nothing in the announcement is trusted.
     */
    IP_NOT_AUTHORISED,
    /** The signed validity window ({@code publishedAt + validFor}) has ended, or the signed payload has none. */
    EXPIRED,
    /** Older {@code (publishedAt, generation)} than an announcement this App already accepted from that Border. */
    REPLAYED;

    /**
     * The reason as shown in APIs and metric tags.
     *
     * @return e.g. {@code identity-mismatch}
     */
    public String slug() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
