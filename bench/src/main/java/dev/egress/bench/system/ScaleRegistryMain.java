package dev.egress.bench.system;

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
import dev.egress.discovery.registry.ydb.YdbBorderRegistry;
import dev.egress.discovery.registry.ydb.YdbRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scale benchmark driver (bench/system/scale.sh): publishes {@code borders} announcements × {@code ipsPerBorder}
 * IPs through the real registry adapter ({@link YdbBorderRegistry}, one session per announcement), waits until
 * the App under test holds all of them, then measures watch latency: {@code Registration.update()} of one of
 * them (IP {@code 10.1.244.1} of border 500, tenant {@code scale}'s dedicated IP) → the App's
 * {@code /v1/tenants/scale/egress} shows the new availability (polled every ~1 ms over one keep-alive
 * connection). Then it holds the registrations for {@code holdSeconds} (prints {@code HOLDING}) so the script
 * can read the App's memory, and closes.
 *
 * <p>Args: connection-string app-url api-token [borders=1000] [ipsPerBorder=8] [rounds=40] [holdSeconds=20]
 * [sessionTimeoutSeconds=30] — the driver's 1,000 sessions share one JVM on a small machine; a long session
 * timeout keeps them from expiring (and re-registering, which churns the registry) when that JVM is starved.
 */
public final class ScaleRegistryMain {

    private ScaleRegistryMain() {}

    static EgressIp ipOf(int border, int slot) {
        return EgressIp.of("10.%d.%d.%d".formatted(1 + border / 250, border % 250, slot + 1));
    }

    public static void main(String[] args) throws Exception {
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).setLevel(Level.WARN);
        String connection = args[0];
        URI app = URI.create(args[1]);
        String token = args[2];
        int borders = args.length > 3 ? Integer.parseInt(args[3]) : 1000;
        int perBorder = args.length > 4 ? Integer.parseInt(args[4]) : 8;
        int rounds = args.length > 5 ? Integer.parseInt(args[5]) : 40;
        int hold = args.length > 6 ? Integer.parseInt(args[6]) : 20;
        int sessionTimeout = args.length > 7 ? Integer.parseInt(args[7]) : 30;
        YdbBorderRegistry registry = YdbRegistry.at(settings(connection, sessionTimeout), new SimpleMeterRegistry())
                .writer(AnnouncementWriter.unsignedForInsecureLocal())
                .connect();
        HttpClient http =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        try {
            List<Registration> regs = registerAll(registry, borders, perBorder);
            awaitAppHoldsAll(http, app, borders);
            int watched = Math.min(500, borders - 1);
            measureWatchLatency(http, app, token, regs.get(watched), ipOf(watched, 0), borders, rounds);
            System.out.println("HOLDING");
            System.out.flush();
            Thread.sleep(hold * 1000L);
        } finally {
            registry.close();
        }
    }

    /** The registry's defaults with the given session timeout (seconds). */
    private static RegistrySettings settings(String connection, int sessionTimeout) {
        RegistrySettings defaults = RegistrySettings.defaults(connection);
        return new RegistrySettings(
                connection,
                defaults.node(),
                defaults.semaphore(),
                Duration.ofSeconds(sessionTimeout),
                defaults.pollInterval());
    }

    /** Waits until the App's routing gauge counts every Border live, and prints how long that took. */
    private static void awaitAppHoldsAll(HttpClient http, URI app, int borders) throws InterruptedException {
        long t1 = System.nanoTime();
        await(Duration.ofSeconds(120), () -> gauge(http, app, "egress_routing_borders_live") >= borders);
        System.out.printf(
                "App holds %d Borders / %.0f IPs %.1f s after the last registration%n",
                borders, gauge(http, app, "egress_routing_ips_live"), (System.nanoTime() - t1) / 1e9);
    }

    /**
     * Flips {@code ip} of {@code target} between ACTIVE and DRAINING {@code rounds} times (after 5 warm-up
     * flips), timing the acknowledgement of each {@code update()} and the moment the App shows it, and prints both.
     */
    private static void measureWatchLatency(
            HttpClient http, URI app, String token, Registration target, EgressIp ip, int borders, int rounds)
            throws Exception {
        HttpRequest probe = HttpRequest.newBuilder(app.resolve("/v1/tenants/scale/egress"))
                .header("Authorization", "Bearer " + token)
                .build();
        List<Double> updateMs = new ArrayList<>();
        List<Double> appMs = new ArrayList<>();
        boolean active = true;
        for (int i = 0; i < rounds + 5; i++) {
            active = !active;
            String want = "\"available\":" + active;
            long start = System.nanoTime();
            target.update(target.current().withIpStatus(ip, active ? IpStatus.ACTIVE : IpStatus.DRAINING))
                    .get();
            long acked = System.nanoTime();
            awaitAppShows(http, probe, want, start + Duration.ofSeconds(30).toNanos());
            long seen = System.nanoTime();
            if (i >= 5) {
                updateMs.add((acked - start) / 1e6);
                appMs.add((seen - start) / 1e6);
            }
            Thread.sleep(ThreadLocalRandom.current().nextInt(200, 400));
        }
        System.out.printf("update() acknowledged (1 of %d): %s%n", borders, summary(updateMs));
        System.out.printf("update() -> App snapshot shows it (1 of %d): %s%n", borders, summary(appMs));
        System.out.println("samples_ms " + appMs);
    }

    /** Polls {@code probe} about every millisecond until its body contains {@code want}, up to {@code deadline}. */
    private static void awaitAppShows(HttpClient http, HttpRequest probe, String want, long deadline) throws Exception {
        while (!http.send(probe, HttpResponse.BodyHandlers.ofString()).body().contains(want)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("App never showed " + want);
            }
            Thread.sleep(1);
        }
    }

    /** Registers {@code borders} announcements of {@code perBorder} IPs each and waits until every one is held. */
    private static List<Registration> registerAll(YdbBorderRegistry registry, int borders, int perBorder)
            throws Exception {
        long t0 = System.nanoTime();
        List<Registration> regs = new ArrayList<>();
        for (int b = 0; b < borders; b++) {
            List<AnnouncedIp> ips = new ArrayList<>();
            for (int s = 0; s < perBorder; s++) {
                ips.add(new AnnouncedIp(ipOf(b, s), IpStatus.ACTIVE));
            }
            regs.add(registry.register(Announcement.initial(
                    BorderId.of("border-%04d".formatted(b)),
                    URI.create("http://127.0.0.1:%d".formatted(20000 + b)),
                    ips,
                    Instant.now())));
        }
        await(Duration.ofSeconds(300), () -> regs.stream().allMatch(r -> r.state() == RegistrationState.REGISTERED));
        System.out.printf(
                "registered %d announcements x %d IPs (%d sessions) in %.1f s%n",
                borders, perBorder, borders, (System.nanoTime() - t0) / 1e9);
        return regs;
    }

    private static double gauge(HttpClient http, URI app, String name) {
        try {
            String text = http.send(
                            HttpRequest.newBuilder(app.resolve("/actuator/prometheus"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            for (String line : text.split("\n")) {
                if (line.startsWith(name + " ") || line.startsWith(name + "{")) {
                    return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                }
            }
        } catch (Exception e) {
            return -1;
        }
        return -1;
    }

    private static String summary(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        Collections.sort(s);
        return "n=%d p50=%.1f p90=%.1f p99=%.1f max=%.1f ms"
                .formatted(
                        s.size(),
                        s.get(s.size() / 2),
                        s.get((int) Math.ceil(s.size() * 0.9) - 1),
                        s.get((int) Math.ceil(s.size() * 0.99) - 1),
                        s.get(s.size() - 1));
    }

    private static void await(Duration timeout, BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new IllegalStateException("timed out after " + timeout);
            }
            Thread.sleep(50);
        }
    }
}
