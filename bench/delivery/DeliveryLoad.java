import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The durable-delivery benchmark's client (bench/delivery/run.sh): asynchronous webhooks ({@code Prefer:
 * respond-async}) to App, with the target's access log ({@code $msec $remote_addr $http_webhook_id $status}) as the
 * ground truth of what was delivered, when and from where.
 *
 * <pre>
 *   java DeliveryLoad.java max  APP_URL SINK_URL SECONDS CONCURRENCY            accepted/s and accept p50/p99
 *   java DeliveryLoad.java rate APP_URL SINK_URL SECONDS RATE ACCESS_LOG        accept -> delivered p50/p99
 *   java DeliveryLoad.java fill APP_URL SINK_URL COUNT CONCURRENCY IDS_FILE     accepts COUNT, writes their ids
 *   java DeliveryLoad.java drain ACCESS_LOG IDS_FILE TIMEOUT_S                  waits for every id: rate, duplicates
 * </pre>
 * Environment: APP_TOKEN (Bearer), TENANT (default acme), EXPECT_IP (the source IP every delivery must have).
 */
public final class DeliveryLoad {

    private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"");
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .executor(Executors.newFixedThreadPool(4, r -> {
                Thread thread = new Thread(r, "client");
                thread.setDaemon(true); // so that the JVM exits when main is done
                return thread;
            }))
            .build();

    private DeliveryLoad() {}

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "max" -> max(args[1], args[2], Integer.parseInt(args[3]), Integer.parseInt(args[4]));
            case "rate" -> rate(args[1], args[2], Integer.parseInt(args[3]), Integer.parseInt(args[4]), Path.of(args[5]));
            case "fill" -> fill(args[1], args[2], Integer.parseInt(args[3]), Integer.parseInt(args[4]), Path.of(args[5]));
            case "drain" -> drain(Path.of(args[1]), Path.of(args[2]), Integer.parseInt(args[3]));
            default -> throw new IllegalArgumentException("mode: " + args[0]);
        }
        System.exit(0);
    }

    private static HttpRequest request(String app, String sink, int n) {
        String tenant = System.getenv().getOrDefault("TENANT", "acme");
        String body = "{\"tenantId\":\"" + tenant + "\",\"url\":\"" + sink + "/hook\",\"payload\":{\"event\":"
                + "\"invoice.paid\",\"n\":" + n + ",\"amount\":4200,\"currency\":\"EUR\"}}";
        return HttpRequest.newBuilder(URI.create(app + "/v1/deliveries"))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + System.getenv().getOrDefault("APP_TOKEN", "bench-api-token"))
                .header("Content-Type", "application/json")
                .header("Prefer", "respond-async")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
    }

    /** One accepted webhook: its id, when it was sent (epoch µs) and how long the accept took (µs). */
    private record Accepted(String id, long sentMicros, long acceptMicros) {}

    private static Accepted send(String app, String sink, int n) {
        long sent = nowMicros();
        long start = System.nanoTime();
        try {
            HttpResponse<String> response = CLIENT.send(request(app, sink, n), HttpResponse.BodyHandlers.ofString());
            long took = (System.nanoTime() - start) / 1_000;
            if (response.statusCode() != 202) {
                return new Accepted(null, sent, took);
            }
            Matcher m = ID.matcher(response.body());
            return new Accepted(m.find() ? m.group(1) : null, sent, took);
        } catch (IOException e) {
            return new Accepted(null, sent, (System.nanoTime() - start) / 1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Accepted(null, sent, 0);
        }
    }

    private static long nowMicros() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000;
    }

    private static void max(String app, String sink, int seconds, int concurrency) throws InterruptedException {
        ConcurrentLinkedQueue<Accepted> done = new ConcurrentLinkedQueue<>();
        AtomicInteger n = new AtomicInteger();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        List<Thread> threads = new ArrayList<>();
        long start = System.nanoTime();
        for (int t = 0; t < concurrency; t++) {
            threads.add(started(() -> {
                while (System.nanoTime() < end) {
                    done.add(send(app, sink, n.incrementAndGet()));
                }
            }));
        }
        for (Thread thread : threads) {
            thread.join();
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        long ok = done.stream().filter(a -> a.id() != null).count();
        long[] latencies = done.stream().filter(a -> a.id() != null).mapToLong(Accepted::acceptMicros).sorted().toArray();
        System.out.printf("accept  accepted=%d failed=%d accepted/s=%.0f p50=%.1fms p99=%.1fms%n",
                ok, done.size() - ok, ok / elapsed, pct(latencies, 50) / 1e3, pct(latencies, 99) / 1e3);
    }

    private static void rate(String app, String sink, int seconds, int rate, Path accessLog) throws Exception {
        int total = seconds * rate;
        Map<String, Accepted> accepted = new ConcurrentHashMap<>();
        AtomicInteger failed = new AtomicInteger();
        CountDownLatch all = new CountDownLatch(total);
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
        var senders = Executors.newFixedThreadPool(64);
        AtomicInteger n = new AtomicInteger();
        long periodNanos = 1_000_000_000L / rate;
        ticker.scheduleAtFixedRate(() -> {
            int i = n.incrementAndGet();
            if (i > total) {
                return;
            }
            senders.execute(() -> {
                Accepted a = send(app, sink, i);
                if (a.id() == null) {
                    failed.incrementAndGet();
                } else {
                    accepted.put(a.id(), a);
                }
                all.countDown();
            });
        }, 0, periodNanos, TimeUnit.NANOSECONDS);
        all.await();
        ticker.shutdownNow();
        senders.shutdown();
        long[] acceptLatencies = accepted.values().stream().mapToLong(Accepted::acceptMicros).sorted().toArray();
        System.out.printf("rate    offered=%d/s for %ds accepted=%d failed=%d accept p50=%.1fms p99=%.1fms%n",
                rate, seconds, accepted.size(), failed.get(), pct(acceptLatencies, 50) / 1e3, pct(acceptLatencies, 99) / 1e3);
        Map<String, List<double[]>> log = awaitLog(accessLog, accepted.keySet(), 60);
        long[] delivered = accepted.values().stream()
                .filter(a -> log.containsKey(a.id()))
                .mapToLong(a -> (long) (log.get(a.id()).get(0)[0] * 1e6) - a.sentMicros())
                .sorted()
                .toArray();
        System.out.printf("deliver delivered=%d of %d, accept->delivered p50=%.1fms p99=%.1fms max=%.1fms%s%n",
                delivered.length, accepted.size(), pct(delivered, 50) / 1e3, pct(delivered, 99) / 1e3,
                delivered.length == 0 ? 0 : delivered[delivered.length - 1] / 1e3, duplicates(log, accepted.keySet()));
    }

    private static void fill(String app, String sink, int count, int concurrency, Path ids) throws Exception {
        ConcurrentLinkedQueue<Accepted> done = new ConcurrentLinkedQueue<>();
        AtomicInteger n = new AtomicInteger();
        long start = System.nanoTime();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < concurrency; t++) {
            threads.add(started(() -> {
                for (int i = n.incrementAndGet(); i <= count; i = n.incrementAndGet()) {
                    done.add(send(app, sink, i));
                }
            }));
        }
        for (Thread thread : threads) {
            thread.join();
        }
        List<String> accepted = done.stream().map(Accepted::id).filter(id -> id != null).toList();
        Files.write(ids, accepted);
        System.out.printf("fill    accepted=%d failed=%d in %.1fs%n",
                accepted.size(), count - accepted.size(), (System.nanoTime() - start) / 1e9);
    }

    private static void drain(Path accessLog, Path idsFile, int timeoutSeconds) throws Exception {
        List<String> ids = Files.readAllLines(idsFile);
        long start = System.nanoTime();
        Map<String, List<double[]>> log = awaitLog(accessLog, new java.util.HashSet<>(ids), timeoutSeconds);
        double first = Double.MAX_VALUE;
        double last = 0;
        for (String id : ids) {
            List<double[]> seen = log.get(id);
            if (seen != null) {
                for (double[] s : seen) {
                    first = Math.min(first, s[0]);
                    last = Math.max(last, s[0]);
                }
            }
        }
        long delivered = ids.stream().filter(log::containsKey).count();
        System.out.printf("drain   delivered=%d of %d in %.1fs (first to last delivery %.1fs: %.0f/s)%s%n",
                delivered, ids.size(), (System.nanoTime() - start) / 1e9, last - first,
                delivered / Math.max(0.001, last - first), duplicates(log, new java.util.HashSet<>(ids)));
    }

    /** Reads the access log until every id is in it or the timeout passes: id → [msec, ipIsExpected]. */
    private static Map<String, List<double[]>> awaitLog(Path accessLog, java.util.Set<String> ids, int timeoutSeconds)
            throws Exception {
        String expectIp = System.getenv("EXPECT_IP");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        AtomicLong foreign = new AtomicLong();
        while (true) {
            Map<String, List<double[]>> seen = new HashMap<>();
            foreign.set(0);
            for (String line : Files.readAllLines(accessLog)) {
                String[] f = line.split(" ");
                // Only what the target took (2xx): a refused attempt is not a delivery.
                if (f.length < 3 || !ids.contains(f[2]) || (f.length > 3 && !f[3].startsWith("2"))) {
                    continue;
                }
                boolean expected = expectIp == null || expectIp.equals(f[1]);
                if (!expected) {
                    foreign.incrementAndGet();
                }
                seen.computeIfAbsent(f[2], k -> new ArrayList<>()).add(new double[] {Double.parseDouble(f[0]), expected ? 1 : 0});
            }
            if (seen.keySet().containsAll(ids) || System.nanoTime() > deadline) {
                if (foreign.get() > 0) {
                    System.out.printf("FOREIGN SOURCE IP: %d deliveries did not leave from %s%n", foreign.get(), expectIp);
                }
                return seen;
            }
            Thread.sleep(200);
        }
    }

    private static String duplicates(Map<String, List<double[]>> log, java.util.Set<String> ids) {
        long extra = ids.stream().filter(log::containsKey).mapToLong(id -> log.get(id).size() - 1).sum();
        return ", duplicates=" + extra;
    }

    private static Thread started(Runnable body) {
        Thread thread = new Thread(body);
        thread.start();
        return thread;
    }

    private static double pct(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int at = (int) Math.ceil(p / 100 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, at))];
    }
}
