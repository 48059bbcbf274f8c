package dev.egress.system;

import dev.egress.discovery.web.testing.RecordingSink;
import java.net.URI;
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
import java.util.function.Supplier;
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
     * @param millis    how long the client waited for App's answer
     */
    record Outcome(String id, String tenant, Instant sentAt, int status, String slug, String egressIp, long millis) {}

    private final Http http;
    private final List<URI> deliveryUris;
    private final Function<String, String> hookUrl;
    private final Supplier<List<RecordingSink.Received>> received;
    private final String label;
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
    private final ExecutorService senders = Executors.newFixedThreadPool(16);
    private final ConcurrentLinkedQueue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
    private final AtomicLong sequence = new AtomicLong();
    private volatile boolean stopped;

    private DeliveryLoad(
            Http http,
            List<URI> deliveryUris,
            Function<String, String> hookUrl,
            Supplier<List<RecordingSink.Received>> received,
            String label) {
        this.http = http;
        this.deliveryUris = List.copyOf(deliveryUris);
        this.hookUrl = hookUrl;
        this.received = received;
        this.label = label;
    }

    /**
     * Starts sending a delivery for each tenant every {@code period}.
     *
     * @return the running load
     */
    static DeliveryLoad start(Platform platform, RecordingSink sink, String label, Duration period) {
        List<URI> apps = new ArrayList<>();
        for (int i = 0; i < platform.apps.size(); i++) {
            apps.add(platform.appUri(i, "/v1/deliveries"));
        }
        return start(platform.http, apps, tenant -> sink.baseUri() + "/hook", sink::received, label, period);
    }

    /**
     * Starts sending to any set of Apps and targets (e.g. a platform inside network namespaces).
     *
     * @param http         the client
     * @param deliveryUris each App's {@code /v1/deliveries} URL; requests alternate between them
     * @param hookUrl      tenant to its webhook URL
     * @param received     what the target(s) recorded so far
     * @param label        marks this load's delivery ids
     * @param period       one delivery per tenant each period
     * @return the running load
     */
    static DeliveryLoad start(
            Http http,
            List<URI> deliveryUris,
            Function<String, String> hookUrl,
            Supplier<List<RecordingSink.Received>> received,
            String label,
            Duration period) {
        DeliveryLoad load = new DeliveryLoad(http, deliveryUris, hookUrl, received, label);
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
            int app = (int) (n % deliveryUris.size());
            senders.execute(() -> send(app, tenant, id));
        }
    }

    private void send(int app, String tenant, String id) {
        Instant sentAt = Instant.now();
        String body = """
                {"tenantId":"%s","url":"%s","payload":{"id":"%s"}}""".formatted(tenant, hookUrl.apply(tenant), id);
        Http.Response response = http.post(deliveryUris.get(app), Platform.API_TOKEN, body);
        String egressIp =
                response.ok() && response.json() != null && response.json().has("egressIp")
                        ? response.json().get("egressIp").asString()
                        : null;
        outcomes.add(new Outcome(
                id,
                tenant,
                sentAt,
                response.status(),
                response.problemSlug(),
                egressIp,
                Duration.between(sentAt, Instant.now()).toMillis()));
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
        return received.get().stream()
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
