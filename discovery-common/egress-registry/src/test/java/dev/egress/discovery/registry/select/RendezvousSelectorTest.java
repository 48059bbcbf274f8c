package dev.egress.discovery.registry.select;

import static dev.egress.discovery.registry.testing.Announcements.route;
import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.registry.Route;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class RendezvousSelectorTest {

    private static final int KEYS = 10_000;
    private static final int BORDERS = 10;

    private final BorderSelector selector = new RendezvousSelector();
    private final List<Route> routes = IntStream.range(0, BORDERS)
            .mapToObj(i -> route("border-" + i, "127.0.0." + (i + 2), IpStatus.ACTIVE))
            .toList();

    @Test
    void aKeyAlwaysGetsTheSameRouteWhateverTheCandidateOrder() {
        List<Route> shuffled = new ArrayList<>(routes);
        Collections.shuffle(shuffled, new Random(7));
        List<Route> reordered = List.copyOf(shuffled);

        for (long key = 0; key < KEYS; key++) {
            assertThat(selector.select(reordered, key)).isSameAs(selector.select(routes, key));
        }
    }

    @Test
    void removingOneOfTenBordersMovesOnlyTheKeysItCarried() {
        Route removed = routes.get(3);
        List<Route> without = routes.stream().filter(route -> route != removed).toList();

        int moved = 0;
        int carried = 0;
        for (long key = 0; key < KEYS; key++) {
            Route before = selector.select(routes, key);
            Route after = selector.select(without, key);
            if (before == removed) {
                carried++;
            } else {
                assertThat(after).as("key %d", key).isSameAs(before);
            }
            if (after != before) {
                moved++;
            }
        }

        assertThat(moved).isEqualTo(carried);
        assertThat(carried).isBetween(KEYS / BORDERS * 8 / 10, KEYS / BORDERS * 12 / 10);
    }

    @Test
    void aBorderThatStopsBeingActiveLosesOnlyItsOwnKeys() {
        List<Route> drained = new ArrayList<>(routes);
        Route draining = routes.get(5);
        drained.set(5, route(draining.borderId().value(), draining.ip().value(), IpStatus.DRAINING));

        for (long key = 0; key < KEYS; key++) {
            Route before = selector.select(routes, key);
            Route after = selector.select(drained, key);
            if (before != draining) {
                assertThat(after).isSameAs(before);
            } else {
                assertThat(after.borderId()).isNotEqualTo(draining.borderId());
            }
        }
    }

    @Test
    void anAddedBorderTakesKeysOnlyForItself() {
        List<Route> grown = new ArrayList<>(routes);
        Route added = route("border-new", "127.0.0.99", IpStatus.ACTIVE);
        grown.add(added);

        for (long key = 0; key < KEYS; key++) {
            Route after = selector.select(grown, key);
            assertThat(after == added || after == selector.select(routes, key))
                    .as("key %d", key)
                    .isTrue();
        }
    }

    @Test
    void spreadsKeysEvenly() {
        Map<String, Long> counts = RoundRobinSelectorTest.countPicks(selector, routes, KEYS);

        assertThat(counts)
                .hasSize(BORDERS)
                .allSatisfy((border, count) -> assertThat(count).isBetween(800L, 1_200L));
    }

    @Test
    void spreadsKeysOverTwoIpsOfOneBorder() {
        Route first = route("border-a", "127.0.0.2", IpStatus.ACTIVE);
        Route second = route("border-a", "127.0.0.3", IpStatus.ACTIVE);

        long onFirst = LongStream.range(0, KEYS)
                .filter(key -> selector.select(List.of(first, second), key) == first)
                .count();

        assertThat(onFirst).isBetween(KEYS * 4L / 10, KEYS * 6L / 10);
    }

    @Test
    void bordersWhoseJavaHashCodesCollideStillShareTheKeys() {
        // "ak" and "c-" have the same String.hashCode; a score built on it would tie on every key.
        assertThat("border-ak".hashCode()).isEqualTo("border-c-".hashCode());
        Route ak = route("border-ak", "127.0.0.2", IpStatus.ACTIVE);
        Route c = route("border-c-", "127.0.0.2", IpStatus.ACTIVE);

        long onAk = LongStream.range(0, KEYS)
                .filter(key -> selector.select(List.of(ak, c), key) == ak)
                .count();

        assertThat(onAk).isBetween(KEYS * 4L / 10, KEYS * 6L / 10);
    }

    @Test
    void takesTheOnlyEligibleRouteForEveryKey() {
        Route active = route("border-z", "127.0.0.2", IpStatus.ACTIVE);
        List<Route> candidates = List.of(
                route("border-a", "127.0.0.2", IpStatus.DRAINING),
                active,
                route("border-b", "127.0.0.2", IpStatus.DISABLED));

        assertThat(LongStream.range(0, 1_000).mapToObj(key -> selector.select(candidates, key)))
                .containsOnly(active);
    }

    @Test
    void returnsNullWhenNothingIsEligible() {
        assertThat(selector.select(List.of(), 0)).isNull();
        assertThat(selector.select(List.of(route("border-a", "127.0.0.2", IpStatus.DRAINING)), 0))
                .isNull();
    }

    @Test
    void takesTheOneActiveRouteBesideADrainingOne() {
        List<Route> candidates = List.of(
                route("border-a", "127.0.0.2", IpStatus.ACTIVE), route("border-b", "127.0.0.3", IpStatus.DRAINING));

        for (long key = 0; key < 100; key++) {
            assertThat(selector.select(candidates, key).borderId().value()).isEqualTo("border-a");
        }
    }

    @Test
    void isNamedByItsConfigurationName() {
        assertThat(selector).hasToString("rendezvous");
    }
}
