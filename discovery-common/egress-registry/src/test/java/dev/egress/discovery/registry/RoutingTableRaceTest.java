package dev.egress.discovery.registry;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Readers on the request path must only ever see whole snapshots, in order. Each snapshot written
 * here is stamped throughout with one number (every Border's generation and endpoint port, and the
 * status pattern), so a reader that caught a half-built or mixed snapshot would see two numbers.
 */
class RoutingTableRaceTest {

    private static final int BORDERS = 4;
    private static final int IPS_PER_BORDER = 8;
    private static final int SWAPS = 5_000;
    private static final int READERS = 4;

    private final ExecutorService pool = Executors.newFixedThreadPool(READERS + 2);
    private final Logger tableLog = (Logger) LoggerFactory.getLogger(RoutingTable.class);
    private Level tableLogLevel;

    @BeforeEach
    void quietSwapLogging() {
        // One INFO line per swap is right in production and thousands of lines of noise here.
        tableLogLevel = tableLog.getLevel();
        tableLog.setLevel(Level.WARN);
    }

    @AfterEach
    void stopThreads() {
        pool.shutdownNow();
        tableLog.setLevel(tableLogLevel);
    }

    @Test
    void readersSeeOnlyCompleteSnapshotsWithGenerationsThatNeverGoBack() throws Exception {
        RoutingTable table = new RoutingTable(Clock.systemUTC());
        table.offer(snapshot(0));
        AtomicBoolean writing = new AtomicBoolean(true);
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        AtomicLong reads = new AtomicLong();
        CountDownLatch start = new CountDownLatch(1);

        List<Future<?>> readers = new ArrayList<>();
        for (int r = 0; r < READERS; r++) {
            readers.add(pool.submit(() -> {
                start.await();
                long lastGeneration = 0;
                // Keep reading until the writer is done, and at least a little even if it was very quick.
                for (int i = 0; writing.get() || i < 1_000; i++) {
                    RoutingSnapshot seen = table.current();
                    if (seen.generation() < lastGeneration) {
                        failures.add("generation went back from %d to %d".formatted(lastGeneration, seen.generation()));
                    }
                    lastGeneration = seen.generation();
                    String problem = inconsistency(seen);
                    if (problem != null) {
                        failures.add(problem);
                    }
                    reads.incrementAndGet();
                }
                return null;
            }));
        }
        Future<Integer> writer = pool.submit(() -> {
            start.await();
            int swaps = 0;
            try {
                for (int stamp = 1; stamp <= SWAPS; stamp++) {
                    if (table.offer(snapshot(stamp))) {
                        swaps++;
                    }
                }
            } finally {
                writing.set(false);
            }
            return swaps;
        });
        start.countDown();

        assertThat(writer.get(2, TimeUnit.MINUTES)).isEqualTo(SWAPS);
        for (Future<?> reader : readers) {
            reader.get(2, TimeUnit.MINUTES);
        }

        assertThat(failures).isEmpty();
        assertThat(reads.get()).isGreaterThanOrEqualTo((long) READERS * 1_000);
        assertThat(table.current().generation()).isEqualTo(SWAPS + 1);
    }

    @Test
    void concurrentWritersNeverLoseOrRepeatAGeneration() throws Exception {
        RoutingTable table = new RoutingTable(Clock.systemUTC());
        List<Long> notified = Collections.synchronizedList(new ArrayList<>());
        table.addListener(snapshot -> notified.add(snapshot.generation()));
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Integer>> writers = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            int offset = w;
            writers.add(pool.submit(() -> {
                start.await();
                int swaps = 0;
                for (int i = 0; i < 1_000; i++) {
                    if (table.offer(snapshot(2 * i + offset))) {
                        swaps++;
                    }
                }
                return swaps;
            }));
        }
        start.countDown();

        int swaps = 0;
        for (Future<Integer> writer : writers) {
            swaps += writer.get(2, TimeUnit.MINUTES);
        }

        assertThat(table.current().generation()).isEqualTo(swaps);
        assertThat(notified).hasSize(swaps).doesNotHaveDuplicates();
    }

    /** A snapshot in which every Border, route and status carries {@code stamp}. */
    private static RoutingSnapshot snapshot(int stamp) {
        List<Announcement> announcements = new ArrayList<>(BORDERS);
        for (int b = 0; b < BORDERS; b++) {
            List<AnnouncedIp> ips = new ArrayList<>(IPS_PER_BORDER);
            for (int i = 0; i < IPS_PER_BORDER; i++) {
                ips.add(new AnnouncedIp(EgressIp.of("127.0." + b + "." + i), statusFor(stamp, i)));
            }
            announcements.add(new Announcement(
                    1,
                    BorderId.of("border-" + b),
                    URI.create("http://127.0.0.1:" + port(stamp)),
                    ips,
                    Instant.EPOCH.plusSeconds(stamp),
                    stamp));
        }
        return RoutingSnapshot.fromAnnouncements(announcements, Instant.EPOCH.plusSeconds(stamp));
    }

    private static String inconsistency(RoutingSnapshot snapshot) {
        if (snapshot.announcements().size() != BORDERS || snapshot.ips().size() != BORDERS * IPS_PER_BORDER) {
            return "incomplete snapshot " + snapshot;
        }
        int stamp = (int) snapshot.announcements().values().iterator().next().generation();
        for (Announcement a : snapshot.announcements().values()) {
            if (a.generation() != stamp) {
                return "mixed announcements in " + snapshot;
            }
        }
        for (EgressIp ip : snapshot.ips()) {
            List<Route> routes = snapshot.routes(ip);
            int index = Integer.parseInt(ip.value().substring(ip.value().lastIndexOf('.') + 1));
            if (routes.size() != 1) {
                return "ip %s has %d routes".formatted(ip, routes.size());
            }
            Route route = routes.get(0);
            if (route.endpoint().getPort() != port(stamp) || route.status() != statusFor(stamp, index)) {
                return "route %s does not belong to stamp %d".formatted(route, stamp);
            }
            if (snapshot.eligibleRoutes(ip).size() != (route.eligible() ? 1 : 0)) {
                return "eligible routes of %s disagree with its routes".formatted(ip);
            }
        }
        return null;
    }

    private static int port(int stamp) {
        return 10_000 + stamp % 50_000;
    }

    private static IpStatus statusFor(int stamp, int ipIndex) {
        return IpStatus.values()[(stamp + ipIndex) % IpStatus.values().length];
    }
}
