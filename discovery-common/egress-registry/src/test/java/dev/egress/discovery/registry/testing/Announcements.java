package dev.egress.discovery.registry.testing;

import dev.egress.discovery.registry.AnnouncedIp;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.AnnouncementCodec;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.registry.Route;
import java.net.URI;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * Test data for the registry model: announcements, their payloads and routes, in one line each.
 * Everything is generation 0 and published at {@link #PUBLISHED_AT} unless a wither changes it.
 */
public final class Announcements {

    /** The publish time of every announcement made here. */
    public static final Instant PUBLISHED_AT = Instant.parse("2026-11-30T10:15:30.123Z");

    private static final AnnouncementCodec CODEC = new AnnouncementCodec();

    private Announcements() {}

    /**
     * A Border announcing IPs, all ACTIVE.
     *
     * @param borderId the Border id, e.g. {@code border-a}
     * @param endpoint its URL, e.g. {@code http://127.0.0.1:8181}
     * @param ips      its IP literals, at least one
     * @return the announcement
     */
    public static Announcement of(String borderId, String endpoint, String... ips) {
        List<AnnouncedIp> announced = Arrays.stream(ips)
                .map(ip -> new AnnouncedIp(EgressIp.of(ip), IpStatus.ACTIVE))
                .toList();
        return Announcement.initial(BorderId.of(borderId), URI.create(endpoint), announced, PUBLISHED_AT);
    }

    /**
     * The registry payload (owner data) of an announcement.
     *
     * @param announcement the announcement
     * @return UTF-8 JSON
     */
    public static byte[] payload(Announcement announcement) {
        return CODEC.encode(announcement);
    }

    /**
     * The payloads of several announcements, in order.
     *
     * @param announcements the announcements
     * @return one payload each
     */
    public static List<byte[]> payloads(Announcement... announcements) {
        return Arrays.stream(announcements).map(Announcements::payload).toList();
    }

    /**
     * A route for selector tests; the endpoint is derived from the Border id.
     *
     * @param borderId the Border id
     * @param ip       the IP literal
     * @param status   the status
     * @return the route
     */
    public static Route route(String borderId, String ip, IpStatus status) {
        return new Route(
                EgressIp.of(ip), BorderId.of(borderId), URI.create("http://" + borderId + ".test:8181"), status);
    }
}
