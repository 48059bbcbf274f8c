package dev.egress.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.discovery.web.testing.RecordingSink;
import dev.egress.system.DeliveryLoad.Outcome;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Issue 24 item 3 as the operator saw it, on {@code ./run-local.sh}'s layout with real processes: an IP
 * disabled through App's operator API stays DISABLED when its Border crashes and comes back, in App's view
 * and at the target, where no webhook of the tenant arrives from it afterwards.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OperatorDecisionsIT {

    private static final String IP = "127.0.0.3";
    private static final Duration LOAD_PERIOD = Duration.ofMillis(100);

    private Platform platform;
    private RecordingSink sink;

    @BeforeAll
    void startPlatform() throws Exception {
        sink = RecordingSink.start();
        platform = Platform.start(Platform.Layout.LOCAL);
    }

    @AfterAll
    void stopPlatform() {
        if (platform != null) {
            platform.close();
        }
        if (sink != null) {
            sink.close();
        }
    }

    @Test
    void anIpDisabledThroughTheOperatorApiStaysDisabledAfterItsBorderRestartsAndNoWebhookLeavesFromIt() {
        // On a loaded machine a Border's first registry read may fail and start it closed; it reads again.
        await("every IP ACTIVE in App's view")
                .atMost(Duration.ofSeconds(120))
                .until(() -> "ACTIVE".equals(platform.statusSeenByApp(0, "127.0.0.2", "border-a"))
                        && "ACTIVE".equals(platform.statusSeenByApp(0, IP, "border-a"))
                        && "ACTIVE".equals(platform.statusSeenByApp(0, "127.0.0.4", "border-b"))
                        && "ACTIVE".equals(platform.statusSeenByApp(0, "127.0.0.5", "border-b")));
        Http.Response put =
                platform.http.put(platform.appUri(0, "/ops/v1/ips/" + IP), Platform.OPERATOR_TOKEN, disabled());
        assertThat(put.status()).as(put.text()).isEqualTo(200);
        assertThat(platform.statusSeenByApp(0, IP, "border-a")).isEqualTo("DISABLED");

        DeliveryLoad load = DeliveryLoad.start(platform, sink, "decisions", LOAD_PERIOD);
        awaitDeliveries(load, 10);

        // Watch App's view through the crash and the restart: the IP must never be seen ACTIVE.
        Queue<String> seen = new ConcurrentLinkedQueue<>();
        ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor();
        watcher.scheduleWithFixedDelay(
                () -> {
                    String status = platform.statusSeenByApp(0, IP, "border-a");
                    if (status != null) {
                        seen.add(status);
                    }
                },
                0,
                50,
                TimeUnit.MILLISECONDS);
        try {
            ServiceProcess borderA = platform.borders.get("border-a");
            borderA.kill();
            await("App drops border-a")
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> !platform.liveBorders(0).contains("border-a"));
            int seenBeforeRestart = seen.size();
            borderA.restart();
            platform.awaitBorderReady("border-a");
            await("App sees the restarted border-a")
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> platform.liveBorders(0).contains("border-a") && seen.size() > seenBeforeRestart);
            int before = load.delivered().size();
            awaitDeliveries(load, before + 20);
        } finally {
            watcher.shutdownNow();
        }
        List<Outcome> outcomes = load.stop();

        assertThat(platform.statusSeenByApp(0, IP, "border-a")).isEqualTo("DISABLED");
        assertThat(seen)
                .as("App's view of %s on border-a through the restart", IP)
                .containsOnly("DISABLED");
        Map<String, RecordingSink.Received> delivered = load.delivered();
        long acme = delivered.keySet().stream()
                .filter(id -> DeliveryLoad.tenantOf(id).equals("acme"))
                .count();
        long fromDisabled = delivered.values().stream()
                .filter(r -> r.peer().getHostAddress().equals(IP))
                .count();
        System.out.printf(
                "[decisions] App's view of %s through the restart: %d samples, all DISABLED; deliveries: %d"
                        + " (acme %d), from %s: %d%n",
                IP, seen.size(), outcomes.size(), acme, IP, fromDisabled);
        assertThat(acme).isPositive();
        assertThat(fromDisabled).isZero();
        assertThat(outcomes).noneMatch(o -> IP.equals(o.egressIp()));

        // Leave the layout as found.
        Http.Response back = platform.http.put(
                platform.appUri(0, "/ops/v1/ips/" + IP), Platform.OPERATOR_TOKEN, "{\"status\":\"ACTIVE\"}");
        assertThat(back.status()).as(back.text()).isEqualTo(200);
    }

    private static String disabled() {
        return "{\"status\":\"DISABLED\"}";
    }

    private static void awaitDeliveries(DeliveryLoad load, int count) {
        await("%d deliveries at the sink".formatted(count))
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> load.delivered().size() >= count);
    }
}
