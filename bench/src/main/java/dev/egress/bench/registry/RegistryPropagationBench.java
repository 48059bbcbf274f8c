package dev.egress.bench.registry;

import ch.qos.logback.classic.Level;
import dev.egress.discovery.registry.AnnouncedIp;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.AnnouncementWriter;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.registry.Registration;
import dev.egress.discovery.registry.RegistrationState;
import dev.egress.discovery.registry.RegistrySettings;
import dev.egress.discovery.registry.RoutingTable;
import dev.egress.discovery.registry.ydb.YdbBorderRegistry;
import dev.egress.discovery.registry.ydb.YdbRegistry;
import dev.egress.discovery.registry.ydb.YdbRegistryWatcher;
import dev.egress.discovery.trust.AnnouncementVerifier;
import dev.egress.ydb.coordination.EmbeddedCoordinationNode;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registry propagation on loopback against the embedded coordination node, with the real adapter
 * over real gRPC: (1) from {@code Registration.update()} to the swapped snapshot of each watcher,
 * 10 Borders and 3 watchers; (2) how long a killed Border (SIGKILL of a separate JVM) stays in the
 * watchers' snapshot, per session timeout; (3) the same after a graceful close.
 *
 * <p>Run: {@code java -cp bench/target/benchmarks.jar dev.egress.bench.registry.RegistryPropagationBench [updatesPerBorder]}
 */
public final class RegistryPropagationBench {

    private static final int BORDERS = 10;
    private static final int WATCHERS = 3;
    private static final int WARMUP_PER_BORDER = 10;

    private RegistryPropagationBench() {}

    /**
     * Runs all three measurements and prints a report.
     *
     * @param args optional: updates per Border (default 60, so 600 measured updates)
     * @throws Exception on setup failure
     */
    public static void main(String[] args) throws Exception {
        quietLogs();
        int perBorder = args.length > 0 ? Integer.parseInt(args[0]) : 60;
        try (EmbeddedCoordinationNode node = EmbeddedCoordinationNode.start(0)) {
            propagation(node, perBorder);
            for (long timeoutMs : new long[] {1000, 2000, 5000}) {
                deadBorderRemoval(node, timeoutMs, 3);
            }
            gracefulRemoval(node, 5000, 5);
        }
        System.exit(0);
    }

    // ---- (1) update -> swapped snapshot ----

    private static void propagation(EmbeddedCoordinationNode node, int perBorder) throws Exception {
        RegistrySettings settings = new RegistrySettings(
                node.connectionString(),
                "bench-propagation",
                "borders-registry",
                Duration.ofSeconds(5),
                Duration.ofMillis(500));
        // Border -> generation -> System.nanoTime() just before update() was called.
        Map<String, ConcurrentSkipListMap<Long, Long>> sent = new ConcurrentHashMap<>();
        List<WatcherProbe> probes = new ArrayList<>();
        List<YdbRegistryWatcher> watchers = new ArrayList<>();
        for (int w = 0; w < WATCHERS; w++) {
            WatcherProbe probe = new WatcherProbe(sent);
            probes.add(probe);
            watchers.add(YdbRegistry.at(settings, probe.meters)
                    .reader(AnnouncementVerifier.unverifiedForInsecureLocal())
                    .watch(probe.table));
        }
        List<YdbBorderRegistry> registries = new ArrayList<>();
        List<Registration> borders = registerBorders(settings, registries);

        runUpdates(borders, sent, WARMUP_PER_BORDER);
        awaitTrue(Duration.ofSeconds(30), () -> probes.stream().allMatch(p -> p.caughtUp(sent)));
        sent.clear();
        probes.forEach(WatcherProbe::reset);

        long started = System.nanoTime();
        SchedulingProbe scheduling = SchedulingProbe.start();
        runUpdates(borders, sent, perBorder);
        awaitTrue(Duration.ofSeconds(30), () -> probes.stream().allMatch(p -> p.caughtUp(sent)));
        List<Long> wakeUpDelays = scheduling.stop();
        double seconds = (System.nanoTime() - started) / 1e9;

        int updates = sent.values().stream().mapToInt(Map::size).sum();
        printPropagationReport(probes, updates, seconds, wakeUpDelays);
        registries.forEach(YdbBorderRegistry::close);
        watchers.forEach(YdbRegistryWatcher::close);
    }

    /**
     * Registers {@link #BORDERS} Borders of one IP each, one registry (session) per Border, adds those
     * registries to {@code registries} (for the caller to close) and waits until every one is registered.
     */
    private static List<Registration> registerBorders(RegistrySettings settings, List<YdbBorderRegistry> registries)
            throws InterruptedException {
        List<Registration> borders = new ArrayList<>();
        for (int b = 0; b < BORDERS; b++) {
            YdbBorderRegistry registry = YdbRegistry.at(settings, new SimpleMeterRegistry())
                    .writer(AnnouncementWriter.unsignedForInsecureLocal())
                    .connect();
            registries.add(registry);
            borders.add(registry.register(Announcement.initial(
                    BorderId.of("border-%02d".formatted(b)),
                    URI.create("http://127.0.0.1:8181"),
                    List.of(new AnnouncedIp(EgressIp.of("127.0.1.%d".formatted(b + 2)), IpStatus.ACTIVE)),
                    Instant.now())));
        }
        awaitTrue(
                Duration.ofSeconds(60),
                () -> borders.stream().allMatch(r -> r.state() == RegistrationState.REGISTERED));
        return borders;
    }

    /** Prints the latencies per watcher and overall, the machine's wake-up lateness and watcher 0's lag metric. */
    private static void printPropagationReport(
            List<WatcherProbe> probes, int updates, double seconds, List<Long> wakeUpDelays) {
        System.out.printf(
                "%n== update() -> swapped snapshot: %d Borders, %d watchers, %d updates, %.1f s ==%n",
                BORDERS, WATCHERS, updates, seconds);
        List<Long> all = new ArrayList<>();
        for (int w = 0; w < WATCHERS; w++) {
            WatcherProbe probe = probes.get(w);
            all.addAll(probe.latencies);
            System.out.printf(
                    "watcher %d: %s, delivered by a later generation's snapshot: %d%n",
                    w, LatencySummary.of(probe.latencies), probe.coalesced);
        }
        System.out.printf("all      : %s%n", LatencySummary.of(all));
        System.out.printf(
                "machine  : a 1 ms park woke up late by %s (CPU contention during the run)%n",
                LatencySummary.of(wakeUpDelays));
        Timer lag = probes.get(0).meters.get("egress.registry.propagation.lag").timer();
        System.out.printf(
                "watcher 0 metric egress.registry.propagation.lag (publishedAt -> apply, since start): count %d, %s%n",
                lag.count(),
                Arrays.stream(lag.takeSnapshot().percentileValues())
                        .map(v -> "p%.0f=%.1fms".formatted(v.percentile() * 100, v.value(TimeUnit.MILLISECONDS)))
                        .toList());
    }

    /** Every Border publishes {@code count} updates, each after the previous one was acknowledged. */
    private static void runUpdates(
            List<Registration> borders, Map<String, ConcurrentSkipListMap<Long, Long>> sent, int count)
            throws Exception {
        CountDownLatch done = new CountDownLatch(borders.size());
        for (Registration border : borders) {
            Thread thread = new Thread(() -> {
                try {
                    for (int i = 0; i < count; i++) {
                        // Pacing, not waiting for an outcome: 10 Borders at ~10 updates/s each.
                        Thread.sleep(ThreadLocalRandom.current().nextLong(50, 150));
                        Announcement current = border.current();
                        IpStatus next =
                                current.ips().get(0).status() == IpStatus.ACTIVE ? IpStatus.DRAINING : IpStatus.ACTIVE;
                        long generation = current.generation() + 1;
                        sent.computeIfAbsent(current.borderId().value(), k -> new ConcurrentSkipListMap<>())
                                .put(generation, System.nanoTime());
                        Announcement published =
                                border.update(current.withAllIps(next)).get(30, TimeUnit.SECONDS);
                        if (published.generation() != generation) {
                            throw new IllegalStateException("unexpected generation " + published.generation());
                        }
                    }
                } catch (Exception e) {
                    e.printStackTrace();
                } finally {
                    done.countDown();
                }
            });
            thread.start();
        }
        done.await();
    }

    // ---- (2) killed Border -> removed from snapshots ----

    private static void deadBorderRemoval(EmbeddedCoordinationNode node, long timeoutMs, int trials) throws Exception {
        RegistrySettings settings = new RegistrySettings(
                node.connectionString(),
                "bench-dead-" + timeoutMs,
                "borders-registry",
                Duration.ofMillis(timeoutMs),
                Duration.ofMillis(500));
        RoutingTable table = new RoutingTable(Clock.systemUTC());
        try (YdbRegistryWatcher watcher = YdbRegistry.at(settings, new SimpleMeterRegistry())
                .reader(AnnouncementVerifier.unverifiedForInsecureLocal())
                .watch(table)) {
            List<Long> removal = new ArrayList<>();
            for (int t = 0; t < trials; t++) {
                String id = "dead-%d-%d".formatted(timeoutMs, t);
                Process border = new ProcessBuilder(
                                javaBinary(),
                                "-cp",
                                System.getProperty("java.class.path"),
                                BorderProcess.class.getName(),
                                settings.connectionString(),
                                settings.node(),
                                Long.toString(timeoutMs),
                                id)
                        .redirectErrorStream(true)
                        .start();
                BufferedReader out =
                        new BufferedReader(new InputStreamReader(border.getInputStream(), StandardCharsets.UTF_8));
                String line;
                while ((line = out.readLine()) != null && !line.equals("REGISTERED")) {
                    // skip start-up output
                }
                awaitTrue(
                        Duration.ofSeconds(30),
                        () -> table.current().announcements().containsKey(BorderId.of(id)));
                long killedAt = System.nanoTime();
                border.destroyForcibly(); // SIGKILL: no release, no session stop
                awaitTrue(
                        Duration.ofSeconds(60),
                        () -> !table.current().announcements().containsKey(BorderId.of(id)));
                removal.add(System.nanoTime() - killedAt);
                border.waitFor();
            }
            System.out.printf(
                    "%n== killed Border (SIGKILL) -> gone from the snapshot, session timeout %d ms ==%n%s%n",
                    timeoutMs, LatencySummary.of(removal));
        }
    }

    // ---- (3) graceful close -> removed ----

    private static void gracefulRemoval(EmbeddedCoordinationNode node, long timeoutMs, int trials) throws Exception {
        RegistrySettings settings = new RegistrySettings(
                node.connectionString(),
                "bench-graceful",
                "borders-registry",
                Duration.ofMillis(timeoutMs),
                Duration.ofMillis(500));
        RoutingTable table = new RoutingTable(Clock.systemUTC());
        try (YdbRegistryWatcher watcher = YdbRegistry.at(settings, new SimpleMeterRegistry())
                        .reader(AnnouncementVerifier.unverifiedForInsecureLocal())
                        .watch(table);
                YdbBorderRegistry registry = YdbRegistry.at(settings, new SimpleMeterRegistry())
                        .writer(AnnouncementWriter.unsignedForInsecureLocal())
                        .connect()) {
            List<Long> removal = new ArrayList<>();
            for (int t = 0; t < trials; t++) {
                BorderId id = BorderId.of("graceful-" + t);
                Registration registration = registry.register(Announcement.initial(
                        id,
                        URI.create("http://127.0.0.1:8181"),
                        List.of(new AnnouncedIp(EgressIp.of("127.0.0.8"), IpStatus.ACTIVE)),
                        Instant.now()));
                awaitTrue(
                        Duration.ofSeconds(30),
                        () -> table.current().announcements().containsKey(id));
                long closedAt = System.nanoTime();
                registration.close();
                awaitTrue(
                        Duration.ofSeconds(60),
                        () -> !table.current().announcements().containsKey(id));
                removal.add(System.nanoTime() - closedAt);
            }
            System.out.printf(
                    "%n== graceful close() -> gone from the snapshot, session timeout %d ms ==%n%s%n",
                    timeoutMs, LatencySummary.of(removal));
        }
    }

    // ---- helpers ----

    private static void awaitTrue(Duration timeout, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("condition not met within " + timeout);
            }
            Thread.sleep(1); // a benchmark's spin: a 1 ms resolution bounds the removal figures, not the lag ones
        }
    }

    static void quietLogs() {
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).setLevel(Level.WARN);
    }

    private static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
