package dev.egress.bench.routing;

import dev.egress.discovery.AnnouncementCodec;
import dev.egress.discovery.BorderId;
import dev.egress.discovery.EgressIp;
import dev.egress.discovery.Route;
import dev.egress.discovery.RoutingSnapshot;
import dev.egress.discovery.select.BorderSelector;
import dev.egress.discovery.select.BorderSelectors;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The request path's routing cost: {@code eligibleRoutes(ip)} plus {@code select} on a snapshot of
 * 1,000 Borders x 8 IPs. IPs are visited in a random order over all 8,000, so the map is not served
 * from one hot cache line. Run with {@code -prof gc} to see bytes allocated per operation.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@State(Scope.Thread)
public class RoutingLookupBenchmark {

    private static final int MASK = 8_191;

    @Param({BorderSelectors.LOWEST_BORDER_ID, BorderSelectors.ROUND_ROBIN, BorderSelectors.RENDEZVOUS,
            BorderSelectors.WEIGHTED})
    public String strategy;

    private RoutingSnapshot snapshot;
    private BorderSelector selector;
    private final EgressIp[] ips = new EgressIp[MASK + 1];
    private final long[] keys = new long[MASK + 1];
    private int next;

    /** Builds the snapshot and a random visiting order of its IPs. */
    @Setup(Level.Trial)
    public void setUp() {
        snapshot = RoutingSnapshot.fromPayloads(RoutingFixture.payloads(), new AnnouncementCodec(), Instant.now());
        selector = BorderSelectors.byName(strategy, Map.of(BorderId.of("border-0001"), 3));
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < ips.length; i++) {
            ips[i] = RoutingFixture.ip(random.nextInt(RoutingFixture.BORDERS), random.nextInt(RoutingFixture.IPS_PER_BORDER));
            keys[i] = random.nextLong();
        }
    }

    /**
     * One routing decision.
     *
     * @return the chosen route (null for a DRAINING-only IP)
     */
    @Benchmark
    public Route lookupAndSelect() {
        int i = next++ & MASK;
        return selector.select(snapshot.eligibleRoutes(ips[i]), keys[i]);
    }

    /**
     * The map lookup alone, to separate it from selection.
     *
     * @return the eligible routes
     */
    @Benchmark
    public List<Route> lookupOnly() {
        return snapshot.eligibleRoutes(ips[next++ & MASK]);
    }
}
