package dev.egress.bench.coordination;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import tech.ydb.coordination.CoordinationSession;
import tech.ydb.coordination.SemaphoreLease;
import tech.ydb.core.Result;

/**
 * Acquire + release round trips per second through the official SDK against the embedded node (loopback gRPC):
 * the cost of a Border re-registering or of a lock taken around a critical section. One session per benchmark
 * thread; the semaphore is persistent with an effectively unlimited limit, so nobody waits.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 10)
@Fork(1)
public class AcquireReleaseBenchmark {

    private static final String SEMAPHORE = "bench-semaphore";
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    /** The server, the SDK transport and the semaphore, shared by all threads. */
    @State(Scope.Benchmark)
    public static class Server {
        CoordinationBenchFixture fixture;

        @Setup(Level.Trial)
        public void start() {
            fixture = new CoordinationBenchFixture();
            CoordinationSession admin = fixture.session();
            CoordinationBenchFixture.expect(
                    admin.createSemaphore(SEMAPHORE, Long.MAX_VALUE).join(), "create");
        }

        @TearDown(Level.Trial)
        public void stop() {
            fixture.close();
        }
    }

    /** One SDK session per benchmark thread, as every Border has its own. */
    @State(Scope.Thread)
    public static class Session {
        CoordinationSession session;

        @Setup(Level.Trial)
        public void connect(Server server) {
            session = server.fixture.session();
        }
    }

    /** One thread: the latency-bound round-trip rate of a single session. */
    @Benchmark
    @Threads(1)
    public void acquireRelease1(Session s) {
        roundTrip(s.session);
    }

    /** Four threads, four sessions: how the single node thread and the loopback gRPC scale with sessions. */
    @Benchmark
    @Threads(4)
    public void acquireRelease4(Session s) {
        roundTrip(s.session);
    }

    private static void roundTrip(CoordinationSession session) {
        Result<SemaphoreLease> lease =
                session.acquireSemaphore(SEMAPHORE, 1, TIMEOUT).join();
        if (!lease.isSuccess()) {
            throw new IllegalStateException("acquire: " + lease.getStatus());
        }
        lease.getValue().release().join();
    }
}
