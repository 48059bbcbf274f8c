package dev.egress.discovery.web.problem;

import org.jspecify.annotations.Nullable;

/**
 * What a problem says about the webhook's target: App moves a delivery to another Border only when a
 * Border said {@link #NONE}, and never sends again what {@link #POSSIBLE}ly arrived. Rendered as the
 * {@code targetContacted} member; a problem about the request itself (an unknown tenant, a bad token on
 * App's API) does not state it.
 */
public enum TargetContact {
    /** The problem is not about a delivery's target: no {@code targetContacted} member. */
    UNSTATED,
    /** Nothing reached the target ({@code targetContacted: false}). */
    NONE,
    /** Some of the request may have reached the target ({@code targetContacted: true}). */
    POSSIBLE;

    /**
     * The stated contact.
     *
     * @param mayHaveBeenContacted whether any byte of the request may have reached the target
     * @return {@link #POSSIBLE} or {@link #NONE}
     */
    public static TargetContact of(boolean mayHaveBeenContacted) {
        return mayHaveBeenContacted ? POSSIBLE : NONE;
    }

    /**
     * The member's value.
     *
     * @return true, false, or null when not stated
     */
    public @Nullable Boolean member() {
        return switch (this) {
            case UNSTATED -> null;
            case NONE -> Boolean.FALSE;
            case POSSIBLE -> Boolean.TRUE;
        };
    }
}
