package dev.egress.discovery.web.problem;

import java.util.Objects;

/**
 * Why a problem happened, as a closed set per kind of failure (an SSRF denial, a target failure, no
 * egress): sent as the problem's {@code reason} member so callers can act on it without parsing the
 * detail. Implemented by enums; {@link #relayed} carries a reason a peer sent, which this service
 * passes on unchanged without knowing the peer's set.
 */
public interface ProblemReason {

    /**
     * The wire form of the reason.
     *
     * @return e.g. {@code no-live-ip}, {@code connection-refused}, {@code DENIED_RANGE}
     */
    String code();

    /**
     * A reason received from a peer (App passes on what a Border said), kept as it was sent.
     *
     * @param code the reason as received, not null
     * @return the reason
     */
    static ProblemReason relayed(String code) {
        return new Relayed(code);
    }

    /**
     * A peer's reason, unchanged.
     *
     * @param code the reason as received
     */
    record Relayed(String code) implements ProblemReason {
        /** Checks the code. */
        public Relayed {
            Objects.requireNonNull(code, "code");
        }
    }
}
