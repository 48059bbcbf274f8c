package dev.egress.discovery.registry.select;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.ThreadMXBean;
import dev.egress.discovery.registry.AnnouncementCodec;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.registry.Route;
import dev.egress.discovery.registry.RoutingSnapshot;
import dev.egress.discovery.registry.testing.Announcements;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The request path must not allocate: lookup plus selection is measured with the JVM's per-thread
 * allocation counter. The bound is far below one object per call, and it holds in the interpreter
 * too, where no escape analysis could hide an allocation.
 */
class SelectionAllocationTest {

    static final List<String> NAMES = BorderSelectors.NAMES;
    private static final int CALLS = 100_000;
    /** Slack for the measurement itself; one 16-byte object per call would be 1.6 MB. */
    private static final long MAX_BYTES = 32 * 1024;

    private final RoutingSnapshot snapshot = RoutingSnapshot.fromPayloads(
            Announcements.payloads(
                    Announcements.of("border-a", "http://127.0.0.1:8181", "127.0.0.2", "127.0.0.3"),
                    Announcements.of("border-b", "http://127.0.0.1:8182", "127.0.0.2", "127.0.0.4"),
                    Announcements.of("border-c", "http://127.0.0.1:8183", "127.0.0.2")
                            .withIpStatus(EgressIp.of("127.0.0.2"), IpStatus.DRAINING)),
            new AnnouncementCodec(),
            Instant.EPOCH);
    private final EgressIp[] ips = {
        EgressIp.of("127.0.0.2"), EgressIp.of("127.0.0.3"), EgressIp.of("127.0.0.4"), EgressIp.of("127.0.0.9")
    };

    @ParameterizedTest
    @FieldSource("NAMES")
    void lookupAndSelectionAllocateNothing(String name) {
        BorderSelector selector = BorderSelectors.byName(name, Map.of(BorderId.of("border-b"), 3));
        ThreadMXBean threads = threads();
        long sink = run(selector, CALLS); // warm-up: class loading and first-call work

        long before = threads.getCurrentThreadAllocatedBytes();
        sink += run(selector, CALLS);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        assertThat(sink).isNotZero();
        assertThat(allocated)
                .as("bytes allocated by %d lookups with %s", CALLS, name)
                .isLessThan(MAX_BYTES);
    }

    @Test
    void selectionAlsoAllocatesNothingOnListsFromTheSnapshotDirectly() {
        List<Route> routes = snapshot.routes(EgressIp.of("127.0.0.2"));
        BorderSelector selector = BorderSelectors.byName("weighted", Map.of());
        ThreadMXBean threads = threads();
        selector.select(routes, 1);

        long before = threads.getCurrentThreadAllocatedBytes();
        long sink = 0;
        for (int i = 0; i < CALLS; i++) {
            sink += selector.select(routes, i).ip().value().length();
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        assertThat(sink).isPositive();
        assertThat(allocated).isLessThan(MAX_BYTES);
    }

    private long run(BorderSelector selector, int calls) {
        long sink = 0;
        for (int i = 0; i < calls; i++) {
            Route route = selector.select(snapshot.eligibleRoutes(ips[i & 3]), i);
            sink += route == null ? 1 : route.borderId().value().length();
        }
        return sink;
    }

    private static ThreadMXBean threads() {
        var bean =
                ManagementFactory.getThreadMXBean(); // java.lang.management.ThreadMXBean; the import is the com.sun one
        Assumptions.assumeTrue(bean instanceof ThreadMXBean, "per-thread allocation counter");
        ThreadMXBean threads = (ThreadMXBean) bean;
        Assumptions.assumeTrue(
                threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(),
                "per-thread allocation counter");
        return threads;
    }
}
