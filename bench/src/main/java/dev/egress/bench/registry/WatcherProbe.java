package dev.egress.bench.registry;

import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.RoutingTable;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * One watcher's view in {@link RegistryPropagationBench}: on every swap, each generation sent up to
 * the one now visible counts as delivered now. A generation superseded before the watcher read it is
 * delivered by the later one, which is what App needs (the latest state), and is timed as such.
 * Its own class because it is the measuring instrument, not a step of the run.
 */
final class WatcherProbe {
    final RoutingTable table = new RoutingTable(Clock.systemUTC());
    final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    final List<Long> latencies = Collections.synchronizedList(new ArrayList<>());
    final Map<String, Long> highest = new ConcurrentHashMap<>();
    volatile int coalesced;

    WatcherProbe(Map<String, ConcurrentSkipListMap<Long, Long>> sent) {
        // Runs on the watcher's loop right after each swap.
        table.addListener(snapshot -> {
            long now = System.nanoTime();
            for (Announcement a : snapshot.announcements().values()) {
                String border = a.borderId().value();
                long previous = highest.getOrDefault(border, -1L);
                if (a.generation() <= previous) {
                    continue;
                }
                highest.put(border, a.generation());
                ConcurrentSkipListMap<Long, Long> generations = sent.get(border);
                if (generations == null) {
                    continue;
                }
                for (Map.Entry<Long, Long> e : generations
                        .subMap(previous, false, a.generation(), true)
                        .entrySet()) {
                    latencies.add(now - e.getValue());
                    if (e.getKey() != a.generation()) {
                        coalesced++;
                    }
                }
            }
        });
    }

    boolean caughtUp(Map<String, ConcurrentSkipListMap<Long, Long>> sent) {
        return sent.entrySet().stream()
                .allMatch(e ->
                        highest.getOrDefault(e.getKey(), -1L) >= e.getValue().lastKey());
    }

    void reset() {
        latencies.clear();
        coalesced = 0;
    }
}
