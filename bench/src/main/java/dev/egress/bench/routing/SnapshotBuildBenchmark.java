package dev.egress.bench.routing;

import dev.egress.discovery.registry.AnnouncementCodec;
import dev.egress.discovery.registry.RoutingSnapshot;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What the watcher pays per registry read: decoding and validating 1,000 owner payloads (8 IPs each)
 * and building the snapshot from them.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@State(Scope.Thread)
public class SnapshotBuildBenchmark {

    private final AnnouncementCodec codec = new AnnouncementCodec();
    private List<byte[]> payloads;

    /** Encodes the payloads once. */
    @Setup(Level.Trial)
    public void setUp() {
        payloads = RoutingFixture.payloads();
    }

    /**
     * One full build.
     *
     * @return the snapshot
     */
    @Benchmark
    public RoutingSnapshot buildFromPayloads() {
        return RoutingSnapshot.fromPayloads(payloads, codec, Instant.EPOCH);
    }
}
