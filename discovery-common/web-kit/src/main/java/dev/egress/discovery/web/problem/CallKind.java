package dev.egress.discovery.web.problem;

import java.util.Locale;

/**
 * What kind of call a service admitted or refused: a {@link #FORWARD} (one HTTP request carried to a target) or a
 * {@link #TUNNEL} (a byte stream to a target's {@code host:port}). It is the {@code kind} tag of every meter
 * {@link CallMeters} registers, so one query can span both kinds.
 */
public enum CallKind {
    /** One HTTP request to a target and its answer. */
    FORWARD,
    /** A byte stream to a target, opened by the forward proxy's CONNECT. */
    TUNNEL;

    /**
     * The value of the {@code kind} tag.
     *
     * @return {@code forward} or {@code tunnel}
     */
    public String tag() {
        return name().toLowerCase(Locale.ROOT);
    }
}
