package dev.egress.discovery.registry.select;

import static dev.egress.discovery.registry.testing.Announcements.route;
import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.registry.Route;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class RoundRobinSelectorTest {

    private final BorderSelector selector = new RoundRobinSelector();

    private final List<Route> candidates = List.of(
            route("border-a", "127.0.0.2", IpStatus.ACTIVE),
            route("border-b", "127.0.0.2", IpStatus.DRAINING),
            route("border-c", "127.0.0.2", IpStatus.ACTIVE),
            route("border-d", "127.0.0.2", IpStatus.DISABLED),
            route("border-e", "127.0.0.2", IpStatus.ACTIVE));

    @Test
    void takesEachEligibleCandidateInTurn() {
        List<String> picks = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            picks.add(selector.select(candidates, 42).borderId().value());
        }

        assertThat(picks.subList(0, 3)).containsExactlyInAnyOrder("border-a", "border-c", "border-e");
        assertThat(picks.subList(3, 6)).isEqualTo(picks.subList(0, 3));
    }

    @Test
    void sharesExactlyEvenlyOverManyCalls() {
        Map<String, Long> counts = countPicks(selector, candidates, 30_000);

        assertThat(counts)
                .containsOnly(
                        Map.entry("border-a", 10_000L), Map.entry("border-c", 10_000L), Map.entry("border-e", 10_000L));
    }

    @Test
    void staysExactlyFairUnderConcurrentCallers() throws Exception {
        Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> callers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                callers.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < 7_500; i++) {
                        counts.computeIfAbsent(
                                        selector.select(candidates, i)
                                                .borderId()
                                                .value(),
                                        k -> new AtomicInteger())
                                .incrementAndGet();
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> caller : callers) {
                caller.get(1, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }

        // Every call takes a distinct turn, so 30,000 calls over 3 eligible routes split exactly.
        assertThat(counts)
                .hasSize(3)
                .allSatisfy((border, count) -> assertThat(count.get()).isEqualTo(10_000));
    }

    @Test
    void twoCandidateListsCalledAlternatelyEachRotate() {
        // Two tenants whose requests strictly alternate: with one shared counter each would only ever
        // see even (or odd) turns and stay on one route.
        List<Route> first = List.of(
                route("border-a", "127.0.0.2", IpStatus.ACTIVE), route("border-b", "127.0.0.3", IpStatus.ACTIVE));
        List<Route> second = otherStripe(first);

        List<String> fromFirst = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            fromFirst.add(selector.select(first, 0).borderId().value());
            selector.select(second, 0);
        }

        assertThat(fromFirst).containsExactly("border-a", "border-b", "border-a", "border-b");
    }

    @Test
    void returnsNullWhenNothingIsEligible() {
        assertThat(selector.select(List.of(), 0)).isNull();
        assertThat(selector.select(List.of(route("border-a", "127.0.0.2", IpStatus.DISABLED)), 0))
                .isNull();
    }

    static Map<String, Long> countPicks(BorderSelector selector, List<Route> candidates, int calls) {
        List<String> picks = new ArrayList<>(calls);
        for (int i = 0; i < calls; i++) {
            picks.add(selector.select(candidates, i).borderId().value());
        }
        return picks.stream().collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
    }

    /** Another list whose turn counter is not the one {@code list} uses. */
    private static List<Route> otherStripe(List<Route> list) {
        while (true) {
            List<Route> other = List.of(
                    route("border-c", "127.0.0.4", IpStatus.ACTIVE),
                    route("border-d", "127.0.0.5", IpStatus.ACTIVE),
                    route("border-e", "127.0.0.6", IpStatus.ACTIVE));
            if ((System.identityHashCode(other) & (RoundRobinSelector.STRIPES - 1))
                    != (System.identityHashCode(list) & (RoundRobinSelector.STRIPES - 1))) {
                return other;
            }
        }
    }

    @Test
    void isNamedByItsConfigurationName() {
        assertThat(new RoundRobinSelector()).hasToString("round-robin");
    }
}
