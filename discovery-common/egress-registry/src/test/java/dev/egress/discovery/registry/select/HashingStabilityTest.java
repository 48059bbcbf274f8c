package dev.egress.discovery.registry.select;

import static dev.egress.discovery.registry.testing.Announcements.route;
import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.registry.Route;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The hashing strategies must map a key to the same Border in every release: during a rolling
 * release old and new Apps run side by side, and if they disagreed a key's deliveries would flap
 * between Borders (and their pooled connections). These picks were recorded once; a change to the
 * hash functions fails here and must be made deliberately, with a note in the release.
 */
class HashingStabilityTest {

    /** Ids and IPs of several lengths, so every path of the text hash takes part. */
    private static final List<Route> ROUTES = List.of(
            route("a", "10.0.0.1", IpStatus.ACTIVE),
            route("border-bc", "10.0.0.1", IpStatus.ACTIVE),
            route("c", "2001:db8::1", IpStatus.ACTIVE),
            route("d-1", "192.0.2.77", IpStatus.ACTIVE),
            route("e", "10.0.0.2", IpStatus.DRAINING));

    private static final long[] KEYS = {
        0, 1, 2, 3, 42, -1, Long.MIN_VALUE, Long.MAX_VALUE, 0x5bd1e995L, 1234567890123L, 7, 99, 1000, 31337, -42, 65536
    };

    @Test
    void rendezvousPicksTheRecordedBorderForEachKey() {
        assertThat(picks(new RendezvousSelector()))
                .containsExactly(
                        "c",
                        "a",
                        "c",
                        "border-bc",
                        "a",
                        "d-1",
                        "border-bc",
                        "d-1",
                        "c",
                        "c",
                        "d-1",
                        "d-1",
                        "border-bc",
                        "d-1",
                        "border-bc",
                        "border-bc");
    }

    @Test
    void weightedRendezvousPicksTheRecordedBorderForEachKey() {
        BorderSelector weighted = new WeightedRendezvousSelector(
                Map.of(BorderId.of("a"), 1, BorderId.of("border-bc"), 3, BorderId.of("c"), 2));

        assertThat(picks(weighted))
                .containsExactly(
                        "c",
                        "c",
                        "c",
                        "border-bc",
                        "a",
                        "d-1",
                        "border-bc",
                        "d-1",
                        "c",
                        "c",
                        "border-bc",
                        "d-1",
                        "border-bc",
                        "d-1",
                        "border-bc",
                        "border-bc");
    }

    private static List<String> picks(BorderSelector selector) {
        return Arrays.stream(KEYS)
                .mapToObj(key -> selector.select(ROUTES, key).borderId().value())
                .toList();
    }
}
