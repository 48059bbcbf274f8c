package dev.egress.bench.routing;

import dev.egress.discovery.registry.AnnouncedIp;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.AnnouncementCodec;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The registry of the benchmarks: 1,000 Borders with 8 IPs each, as owner payloads. */
final class RoutingFixture {

    static final int BORDERS = 1_000;
    static final int IPS_PER_BORDER = 8;

    private RoutingFixture() {}

    /**
     * One payload per Border. Every tenth Border has one IP DRAINING, so lookups also meet empty
     * eligible lists, as they do during a release.
     */
    static List<byte[]> payloads() {
        AnnouncementCodec codec = new AnnouncementCodec();
        Instant publishedAt = Instant.parse("2026-11-30T10:15:30.123Z");
        List<byte[]> payloads = new ArrayList<>(BORDERS);
        for (int b = 0; b < BORDERS; b++) {
            List<AnnouncedIp> ips = new ArrayList<>(IPS_PER_BORDER);
            for (int i = 0; i < IPS_PER_BORDER; i++) {
                IpStatus status = b % 10 == 0 && i == 0 ? IpStatus.DRAINING : IpStatus.ACTIVE;
                ips.add(new AnnouncedIp(ip(b, i), status));
            }
            Announcement a = new Announcement(
                    1,
                    BorderId.of("border-%04d".formatted(b)),
                    URI.create("http://10.1.%d.%d:8181".formatted(b / 250, b % 250)),
                    ips,
                    publishedAt,
                    b);
            payloads.add(codec.encode(a));
        }
        return payloads;
    }

    static EgressIp ip(int border, int index) {
        int n = border * IPS_PER_BORDER + index;
        return EgressIp.of("203.%d.%d.%d".formatted(n / 65_536, (n / 256) % 256, n % 256));
    }
}
