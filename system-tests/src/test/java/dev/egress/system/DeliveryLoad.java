package dev.egress.system;

import dev.egress.discovery.testing.RecordingSink;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A steady load of deliveries for the dedicated tenant {@code acme} and the shared tenant
 * {@code small-co}, alternating between the two Apps. Every delivery carries a unique id in its payload
 * so the sink's records can be matched to the API's answers.
 */
final class DeliveryLoad implements AutoCloseable {

    /**
     * One delivery as the client saw it.
     *
     * @param id        unique id, also in the payload
     * @param tenant    the tenant
     * @param sentAt    when the request was sent
     * @param status    App's HTTP status (0: no answer)
     * @param slug      problem slug for errors
     * @param egressIp  the egress IP App reported, for 200s
     */
    record Outcome(String id, String tenant, Instant sentAt, int status, String slug, String egressIp) {
    }

    private final Platform platform;
    private final RecordingSink sink;
    private final String label;
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
    private final ExecutorService senders = Executors.newFixedThreadPool(16);
    private final ConcurrentLinkedQueue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
    private final AtomicLong sequence = new AtomicLong();
    private volatile boolean stopped;

    private DeliveryLoad(Platform platform, RecordingSink sink, String label) {
        this.platform = platform;
        this.sink = sink;
        this.label = label;
    }

    /**
     * Starts sending a delivery for each tenant every {@code period}.
     *
     * @return the running load
     */
    static DeliveryLoad start(Platform platform, RecordingSink sink, String label, Duration period) {
        DeliveryLoad load = new DeliveryLoad(platform, sink, label);
        load.ticker.scheduleAtFixedRate(load::tick, 0, period.toMillis(), TimeUnit.MILLISECONDS);
        return load;
    }

    private void tick() {
        if (stopped) {
            return;
        }
        long n = sequence.incrementAndGet();
        for (String tenant : List.of("acme", "small-co")) {
            String id = label + "-" + tenant + "-" + n;
            int app = (int) (n % platform.apps.size());
            senders.execute(() -> send(app, tenant, id));
        }
    }

    private void send(int app, String tenant, String id) {
        Instant sentAt = Instant.now();
        String body = """
                {"tenantId":"%s","url":"%s/hook","payload":{"id":"%s"}}""".formatted(tenant, sink.baseUri(), id);
        Http.Response response = platform.http.post(platform.appUri(app, "/v1/deliveries"), Platform.API_TOKEN, body);
        String egressIp = response.ok() && response.json() != null && response.json().has("egressIp")
                ? response.json().get("egressIp").asString() : null;
        outcomes.add(new Outcome(id, tenant, sentAt, response.status(), response.problemSlug(), egressIp));
    }

    /**
     * Stops sending and waits for answers to what was sent.
     *
     * @return every outcome
     */
    List<Outcome> stop() {
        stopped = true;
        ticker.shutdownNow();
        senders.shutdown();
        try {
            senders.awaitTermination(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return new ArrayList<>(outcomes);
    }

    /**
     * Outcomes answered so far, while the load goes on.
     *
     * @return a copy
     */
    List<Outcome> outcomesSoFar() {
        return new ArrayList<>(outcomes);
    }

    /**
     * Sink records of this load, by delivery id.
     *
     * @return delivery id to the record
     */
    Map<String, RecordingSink.Received> delivered() {
        return sink.received().stream()
                .filter(r -> r.body().contains("\"" + label + "-"))
                .collect(Collectors.toMap(DeliveryLoad::idOf, Function.identity(), (a, b) -> a));
    }

    static String idOf(RecordingSink.Received received) {
        return Http.JSON.readTree(received.body()).get("id").asString();
    }

    static String tenantOf(String id) {
        return id.contains("-acme-") ? "acme" : "small-co";
    }

    @Override
    public void close() {
        stop();
    }
}
