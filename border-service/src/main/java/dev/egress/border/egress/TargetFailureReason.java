package dev.egress.border.egress;

import dev.egress.discovery.web.problem.ProblemReason;
import java.util.Locale;

/**
 * Why a call to the target failed, in a user's terms: a closed set, sent as the problem's
 * {@code reason} (lower-case, dash-separated), so callers can act on it without parsing the
 * framework's text, which goes in {@code cause}.
 */
enum TargetFailureReason implements ProblemReason {
    /** Nothing listens on the target's address and port. */
    CONNECTION_REFUSED("the target refused the connection (nothing listens on that address and port)"),
    /** No answer to the connection attempt in time (a firewall that drops, a host that is down). */
    CONNECTION_TIMEOUT("the connection to the target timed out (a firewall may drop it, or the host is down)"),
    /** The TLS handshake failed: certificate not trusted or not naming the host, or no common protocol. */
    TLS_HANDSHAKE_FAILED("TLS with the target failed (its certificate is not trusted or does not name the host)"),
    /** The connection broke after the request may have been sent. */
    CONNECTION_BROKEN("the connection to the target broke before its answer was complete"),
    /** The target accepted the request but did not answer in time. */
    RESPONSE_TIMEOUT("the target did not answer in time"),
    /** The target answered with something that is not HTTP. */
    MALFORMED_RESPONSE("the target's answer is not valid HTTP"),
    /** A failure the Border does not recognise. */
    OTHER("the call to the target failed");

    private final String wording;

    TargetFailureReason(String wording) {
        this.wording = wording;
    }

    /**
     * The wire form.
     *
     * @return e.g. {@code connection-refused}
     */
    String slug() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    @Override
    public String code() {
        return slug();
    }

    /**
     * What happened, for a user.
     *
     * @return one sentence without framework words
     */
    String wording() {
        return wording;
    }
}
