package dev.egress.bench.routing;

import dev.egress.discovery.registry.AnnouncementCodec;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.Route;
import dev.egress.discovery.registry.RoutingSnapshot;
import dev.egress.discovery.registry.select.BorderSelector;
import dev.egress.discovery.registry.select.BorderSelectors;
import java.time.Instant;
import java.util.ArrayList;
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
 * 1,000 Borders x 8 IPs (each IP on one Border; every tenth Border has one IP DRAINING). IPs are
 * visited in a random order over all 8,000, so the map is not served from one hot cache line. Run
 * with {@code -prof gc} to see bytes allocated per operation.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@State(Scope.Thread)
public class RoutingLookupBenchmark {

    private static final int MASK = 8_191;
    private static final int TENANTS = 1_024;
    private static final int IPS_PER_TENANT = 4;

    @Param({
        BorderSelectors.LOWEST_BORDER_ID,
        BorderSelectors.ROUND_ROBIN,
        BorderSelectors.RENDEZVOUS,
        BorderSelectors.WEIGHTED
    })
    public String strategy;

    private RoutingSnapshot snapshot;
    private BorderSelector selector;
    private final EgressIp[] ips = new EgressIp[MASK + 1];
    private final long[] keys = new long[MASK + 1];
    private final List<List<Route>> tenantCandidates = new ArrayList<>(TENANTS);
    private int next;

    /** Builds the snapshot and a random visiting order of its IPs. */
    @Setup(Level.Trial)
    public void setUp() {
        snapshot = RoutingSnapshot.fromPayloads(RoutingFixture.payloads(), new AnnouncementCodec(), Instant.now());
        selector = BorderSelectors.byName(strategy, Map.of(BorderId.of("border-0001"), 3));
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < ips.length; i++) {
            ips[i] = RoutingFixture.ip(
                    random.nextInt(RoutingFixture.BORDERS), random.nextInt(RoutingFixture.IPS_PER_BORDER));
            keys[i] = random.nextLong();
        }
        // A tenant with several dedicated IPs: App computes its candidate list once per snapshot.
        for (int t = 0; t < TENANTS; t++) {
            List<EgressIp> tenantIps = new ArrayList<>(IPS_PER_TENANT);
            for (int i = 0; i < IPS_PER_TENANT; i++) {
                tenantIps.add(ips[random.nextInt(ips.length)]);
            }
            tenantCandidates.add(snapshot.eligibleRoutes(tenantIps));
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
     * Selection among a multi-IP tenant's (up to) four cached candidates, the case where the hashing
     * strategies must score every route.
     *
     * @return the chosen route
     */
    @Benchmark
    public Route selectAmongTenantIps() {
        int i = next++ & MASK;
        return selector.select(tenantCandidates.get(i & (TENANTS - 1)), keys[i]);
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
