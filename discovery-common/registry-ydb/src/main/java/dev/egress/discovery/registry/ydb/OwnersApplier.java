package dev.egress.discovery.registry.ydb;

import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.AnnouncementReader;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.RejectionReason;
import dev.egress.discovery.registry.RoutingSnapshot;
import dev.egress.discovery.registry.RoutingTable;
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
 * the {@link RoutingTable} (which swaps only on changed content). Each owner's data goes through the
 * {@link AnnouncementReader} (signature verification in production), so a refused payload never
 * reaches routing. Also the bookkeeping that spans reads: refused payloads are counted and logged
 * once per owner session and reason, and propagation lag is recorded once per announcement
 * generation new to this watcher. Knows nothing of the SDK. Not thread-safe: the
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
    record Owner(long sessionId, byte[] data) {}

    private record Seen(long generation, Instant publishedAt) {}

    private record Reported(long sessionId, RejectionReason reason) {}

    private final AnnouncementReader reader;
    private final RoutingTable table;
    private final Clock clock;
    private final WatcherMetrics metrics;
    private final Set<Reported> reported = new HashSet<>();
    private Map<BorderId, Seen> seen;

    OwnersApplier(AnnouncementReader reader, RoutingTable table, Clock clock, WatcherMetrics metrics) {
        this.reader = reader;
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
        RoutingSnapshot snapshot = RoutingSnapshot.fromPayloads(payloads, reader, clock.instant());
        reportRejected(owners, snapshot);
        boolean swapped = table.offer(snapshot);
        recordLag(snapshot, clock.instant());
        return swapped;
    }

    private void reportRejected(List<Owner> owners, RoutingSnapshot snapshot) {
        Set<Reported> now = new HashSet<>();
        for (RoutingSnapshot.Rejection rejection : snapshot.rejections()) {
            Reported key = new Reported(owners.get(rejection.index()).sessionId(), rejection.cause());
            now.add(key);
            if (reported.add(key)) {
                metrics.rejected(rejection.cause());
                if (rejection.cause() == RejectionReason.MALFORMED) {
                    log.warn(
                            "Skipping the malformed announcement of registry session {}: {}",
                            key.sessionId(),
                            rejection.reason());
                } else {
                    log.warn(
                            "Rejected the announcement of registry session {} claiming border {}: {}: {}",
                            key.sessionId(),
                            rejection.claimedBorderId(),
                            rejection.cause().slug(),
                            rejection.reason());
                }
            }
        }
        // Forget owners that are gone or fixed, so the set stays as small as the registry.
        reported.retainAll(now);
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
