package dev.egress.discovery.registry.ydb;

import dev.egress.discovery.Announcement;
import dev.egress.discovery.AnnouncementCodec;
import dev.egress.discovery.BorderId;
import dev.egress.discovery.RoutingSnapshot;
import dev.egress.discovery.RoutingTable;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns one successful read of the semaphore's owners into a {@link RoutingSnapshot} and offers it to
 * the {@link RoutingTable} (which swaps only on changed content). Also the bookkeeping that spans
 * reads: malformed payloads are reported once per owner, and propagation lag is recorded once per
 * announcement generation new to this watcher. Knows nothing of the SDK. Not thread-safe: the
 * watcher's loop owns it.
 */
final class OwnersApplier {

    private static final Logger log = LoggerFactory.getLogger(OwnersApplier.class);

    /**
     * One owner of the registry semaphore.
     *
     * @param sessionId the owner's session (identifies the owner across reads)
     * @param data      its payload
     */
    record Owner(long sessionId, byte[] data) {
    }

    private record Seen(long generation, Instant publishedAt) {
    }

    private final AnnouncementCodec codec;
    private final RoutingTable table;
    private final Clock clock;
    private final WatcherMetrics metrics;
    private final Set<Long> reportedMalformed = new HashSet<>();
    private Map<BorderId, Seen> seen;

    OwnersApplier(AnnouncementCodec codec, RoutingTable table, Clock clock, WatcherMetrics metrics) {
        this.codec = codec;
        this.table = table;
        this.clock = clock;
        this.metrics = metrics;
    }

    /**
     * Applies one read.
     *
     * @param owners the semaphore's owners as read
     * @return true if the table swapped to a new snapshot
     */
    boolean apply(List<Owner> owners) {
        List<byte[]> payloads = new ArrayList<>(owners.size());
        for (Owner owner : owners) {
            payloads.add(owner.data());
        }
        RoutingSnapshot snapshot = RoutingSnapshot.fromPayloads(payloads, codec, clock.instant());
        reportMalformed(owners, snapshot);
        boolean swapped = table.offer(snapshot);
        recordLag(snapshot, clock.instant());
        return swapped;
    }

    private void reportMalformed(List<Owner> owners, RoutingSnapshot snapshot) {
        Set<Long> malformedNow = new HashSet<>();
        for (RoutingSnapshot.Rejection rejection : snapshot.rejections()) {
            long sessionId = owners.get(rejection.index()).sessionId();
            malformedNow.add(sessionId);
            if (reportedMalformed.add(sessionId)) {
                metrics.malformed();
                log.warn("Skipping the malformed announcement of registry session {}: {}", sessionId, rejection.reason());
            }
        }
        // Forget owners that are gone or fixed, so the set stays as small as the registry.
        reportedMalformed.retainAll(malformedNow);
    }

    private void recordLag(RoutingSnapshot snapshot, Instant appliedAt) {
        Map<BorderId, Seen> now = new HashMap<>();
        for (Announcement a : snapshot.announcements().values()) {
            Seen current = new Seen(a.generation(), a.publishedAt());
            now.put(a.borderId(), current);
            // The first read is a baseline: its announcements may be hours old, which is not lag.
            if (seen != null && !current.equals(seen.get(a.borderId()))) {
                metrics.lag(Duration.between(a.publishedAt(), appliedAt));
            }
        }
        seen = now;
    }
}
