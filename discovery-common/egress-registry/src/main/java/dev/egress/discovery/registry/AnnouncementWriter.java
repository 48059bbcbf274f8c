package dev.egress.discovery.registry;

import java.time.Duration;
import java.util.Optional;

/**
 * Turns a Border's announcement into the owner data it publishes. Production Borders sign
 * ({@code dev.egress.discovery.trust.AnnouncementSigner}); {@code insecure-local} runs write the bare
 * JSON of {@link AnnouncementCodec}.
 */
@FunctionalInterface
public interface AnnouncementWriter {

    /**
     * Encodes (and signs) an announcement.
     *
     * @param announcement a valid announcement
     * @return the owner data
     * @throws InvalidAnnouncementException if the result would exceed {@link AnnouncementCodec#MAX_BYTES}
     */
    byte[] write(Announcement announcement);

    /**
     * The validity window this writer signs into announcements that carry none; the publisher must
     * republish within it (docs/architecture.md, "The trust chain").
     *
     * @return the window, empty when the owner data never expires (unsigned writers)
     */
    default Optional<Duration> validity() {
        return Optional.empty();
    }

    /**
     * The bare JSON of the codec, unsigned: for {@code egress.security.insecure-local} only.
     *
     * @return the writer
     */
    static AnnouncementWriter unsignedForInsecureLocal() {
        AnnouncementCodec codec = new AnnouncementCodec();
        return codec::encode;
    }
}
