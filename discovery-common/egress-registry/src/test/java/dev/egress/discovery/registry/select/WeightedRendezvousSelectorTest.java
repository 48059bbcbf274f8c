package dev.egress.discovery.registry.select;

import static dev.egress.discovery.registry.testing.Announcements.route;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.registry.Route;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WeightedRendezvousSelectorTest {

    private static final int KEYS = 80_000;

    private final List<Route> routes = List.of(
            route("border-a", "127.0.0.2", IpStatus.ACTIVE),
            route("border-b", "127.0.0.3", IpStatus.ACTIVE),
            route("border-c", "127.0.0.4", IpStatus.ACTIVE),
            route("border-d", "127.0.0.5", IpStatus.DRAINING));

    @Test
    void sharesKeysInProportionToWeights() {
        BorderSelector selector = new WeightedRendezvousSelector(
                Map.of(BorderId.of("border-b"), 2, BorderId.of("border-c"), 5, BorderId.of("border-d"), 100));

        Map<String, Long> counts = RoundRobinSelectorTest.countPicks(selector, routes, KEYS);

        // Weights 1 (default), 2, 5: expected shares 1/8, 2/8, 5/8; the DRAINING Border gets nothing
        // however heavy it is.
        assertThat(counts).containsOnlyKeys("border-a", "border-b", "border-c");
        assertThat(share(counts, "border-a")).isCloseTo(1 / 8.0, offset(0.01));
        assertThat(share(counts, "border-b")).isCloseTo(2 / 8.0, offset(0.01));
        assertThat(share(counts, "border-c")).isCloseTo(5 / 8.0, offset(0.01));
    }

    @Test
    void withEqualWeightsPicksWhatRendezvousPicks() {
        BorderSelector weighted = new WeightedRendezvousSelector(Map.of());
        BorderSelector plain = new RendezvousSelector();

        for (long key = 0; key < 10_000; key++) {
            assertThat(weighted.select(routes, key)).isSameAs(plain.select(routes, key));
        }
    }

    @Test
    void removingABorderMovesOnlyTheKeysItCarried() {
        BorderSelector selector = new WeightedRendezvousSelector(Map.of(BorderId.of("border-a"), 3));
        List<Route> without = List.of(routes.get(0), routes.get(2));

        for (long key = 0; key < 10_000; key++) {
            Route before = selector.select(routes, key);
            if (before != routes.get(1)) {
                assertThat(selector.select(without, key)).isSameAs(before);
            }
        }
    }

    @Test
    void raisingOneWeightOnlyMovesKeysTowardsThatBorder() {
        BorderSelector before = new WeightedRendezvousSelector(Map.of());
        BorderSelector after = new WeightedRendezvousSelector(Map.of(BorderId.of("border-c"), 4));

        for (long key = 0; key < 10_000; key++) {
            Route was = before.select(routes, key);
            Route is = after.select(routes, key);
            assertThat(is == was || is == routes.get(2)).as("key %d", key).isTrue();
        }
    }

    @Test
    void returnsNullWhenNothingIsEligible() {
        BorderSelector selector = new WeightedRendezvousSelector(Map.of());

        assertThat(selector.select(List.of(), 0)).isNull();
        assertThat(selector.select(List.of(routes.get(3)), 0)).isNull();
    }

    private static double share(Map<String, Long> counts, String border) {
        return counts.getOrDefault(border, 0L) / (double) KEYS;
    }

    @Test
    void takesTheOneActiveRouteBesideADrainingOneWhateverItsWeight() {
        BorderSelector selector = new WeightedRendezvousSelector(Map.of(BorderId.of("border-d"), 100));
        List<Route> candidates = List.of(routes.get(0), routes.get(3));

        for (long key = 0; key < 100; key++) {
            assertThat(selector.select(candidates, key)).isSameAs(routes.get(0));
        }
    }

    @Test
    void isNamedByItsConfigurationNameAndWeights() {
        assertThat(new WeightedRendezvousSelector(Map.of(BorderId.of("border-b"), 2)))
                .hasToString("weighted{border-b=2}");
    }
}
