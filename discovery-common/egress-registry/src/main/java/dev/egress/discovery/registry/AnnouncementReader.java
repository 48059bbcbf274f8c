package dev.egress.discovery.registry;

/**
 * Turns one registry owner's data into an announcement App may act on, or refuses it with a typed reason. The
 * registry is shared storage, not a trusted party (docs/architecture.md, "The trust chain"): production Apps
 * verify signatures ({@code dev.egress.discovery.trust.AnnouncementVerifier}). Implementations are
 * thread-safe and never throw anything but {@link RejectedAnnouncementException}.
 */
@FunctionalInterface
public interface AnnouncementReader {

    /**
     * Reads one owner's data.
     *
     * @param data the owner data
     * @return the announcement
     * @throws RejectedAnnouncementException with the reason it may not be routed on
     */
    Announcement read(byte[] data);
}
