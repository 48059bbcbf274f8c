package dev.egress.discovery.registry;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A registry owner's data may not be routed on. Carries the typed reason, a detail for logs and the
 * status API, and the Border id the data claims when it could be read (unverified: only for display).
 */
public final class RejectedAnnouncementException extends RuntimeException {

    private final RejectionReason reason;
    private final String detail;
    private final transient BorderId claimedBorderId;

    /**
     * Creates the exception.
     *
     * @param reason          the reason
     * @param detail          what exactly failed
     * @param claimedBorderId the id the data claims, or null if unreadable
     */
    public RejectedAnnouncementException(RejectionReason reason, String detail, @Nullable BorderId claimedBorderId) {
        super(reason.slug() + ": " + detail, null, false, false);
        this.reason = Objects.requireNonNull(reason, "reason");
        this.detail = detail;
        this.claimedBorderId = claimedBorderId;
    }

    /**
     * The reason.
     *
     * @return the reason
     */
    public RejectionReason reason() {
        return reason;
    }

    /**
     * What exactly failed, without the reason's slug.
     *
     * @return the detail
     */
    public String detail() {
        return detail;
    }

    /**
     * The Border id the data claims (not verified).
     *
     * @return the id, or null if the data could not be read that far
     */
    public @Nullable BorderId claimedBorderId() {
        return claimedBorderId;
    }
}
