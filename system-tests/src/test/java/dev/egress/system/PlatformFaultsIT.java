package dev.egress.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.discovery.web.testing.RecordingSink;
import dev.egress.system.DeliveryLoad.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The platform's promises under faults, with real processes on loopback: one coordination node, three
 * Borders (acme's two IPs on two of them), two Apps, a sink on 127.0.0.1 that records the peer address of
 * every request, and a steady load for a dedicated and a shared tenant through every scenario. Each
 * scenario leaves the platform as it found it and prints the figures it asserts.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PlatformFaultsIT {

    private static final Duration LOAD_PERIOD = Duration.ofMillis(100);

    private Platform platform;
    private RecordingSink sink;

    @BeforeAll
    void startPlatform() throws Exception {
        sink = RecordingSink.start();
        platform = Platform.start();
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
    @Order(1)
    void drainedIpTakesNoNewDeliveriesOnceThePropagationIsSeen() {
        DeliveryLoad load = DeliveryLoad.start(platform, sink, "drain", LOAD_PERIOD);
        awaitDeliveries(load, 10);

        Instant changed = Instant.now();
        Http.Response put = platform.http.put(
                platform.borderUri("border-a", "/ops/v1/ips/127.0.0.3"),
                Platform.OPERATOR_TOKEN,
                "{\"status\":\"DRAINING\"}");
        assertThat(put.status()).as(put.text()).isEqualTo(200);
        await("both Apps see 127.0.0.3 DRAINING")
                .atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> "DRAINING".equals(platform.statusSeenByApp(0, "127.0.0.3", "border-a"))
                        && "DRAINING".equals(platform.statusSeenByApp(1, "127.0.0.3", "border-a")));
        Instant propagated = Instant.now();
        int before = load.delivered().size();
        awaitDeliveries(load, before + 20);
        List<Outcome> outcomes = load.stop();

        List<Outcome> afterPropagation =
                outcomes.stream().filter(o -> o.sentAt().isAfter(propagated)).toList();
        long viaDrained = afterPropagation.stream()
                .filter(o -> "127.0.0.3".equals(o.egressIp()))
                .count();
        long failed = outcomes.stream().filter(o -> !isSuccess(o)).count();
        System.out.printf(
                "[drain] propagation to both Apps: %d ms; deliveries after it: %d, via the drained IP: %d;"
                        + " failed overall: %d of %d%n",
                Duration.between(changed, propagated).toMillis(),
                afterPropagation.size(),
                viaDrained,
                failed,
                outcomes.size());

        assertThat(afterPropagation).isNotEmpty();
        assertThat(viaDrained).isZero();
        assertThat(failed)
                .as("in-flight deliveries complete and others move on")
                .isZero();
        assertNoneLostAndNoForeignIp(load, outcomes);

        platform.http.put(
                platform.borderUri("border-a", "/ops/v1/ips/127.0.0.3"),
                Platform.OPERATOR_TOKEN,
                "{\"status\":\"ACTIVE\"}");
        await().atMost(Duration.ofSeconds(10))
                .until(() -> "ACTIVE".equals(platform.statusSeenByApp(0, "127.0.0.3", "border-a"))
                        && "ACTIVE".equals(platform.statusSeenByApp(1, "127.0.0.3", "border-a")));
    }

    @Test
    @Order(2)
    void killedBorderLeavesEveryAppWithinTheSessionTimeoutAndNothingIsLost() {
        DeliveryLoad load = DeliveryLoad.start(platform, sink, "kill", LOAD_PERIOD);
        awaitDeliveries(load, 10);

        Instant killed = Instant.now();
        platform.borders.get("border-b").kill();
        await("both Apps drop border-b")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> !platform.liveBorders(0).contains("border-b")
                        && !platform.liveBorders(1).contains("border-b"));
        Duration removal = Duration.between(killed, Instant.now());
        int before = load.delivered().size();
        awaitDeliveries(load, before + 20);
        List<Outcome> outcomes = load.stop();

        long failed = outcomes.stream().filter(o -> !isSuccess(o)).count();
        Set<Integer> failureStatuses = outcomes.stream()
                .filter(o -> !isSuccess(o))
                .map(Outcome::status)
                .collect(Collectors.toCollection(TreeSet::new));
        Duration bound = Platform.SESSION_TIMEOUT.plus(Platform.POLL_INTERVAL);
        System.out.printf(
                "[kill -9] removal from both Apps: %d ms (session timeout + poll = %d ms);"
                        + " deliveries: %d, failed: %d %s%n",
                removal.toMillis(), bound.toMillis(), outcomes.size(), failed, failureStatuses);

        // The bound is the issue's; the slack covers detection of the broken stream and the status
        // API poll of this test on a shared two-core machine. The figure itself is printed above.
        assertThat(removal).isLessThanOrEqualTo(bound.plus(Duration.ofSeconds(2)));
        assertThat(failureStatuses).as("failures are retryable").isSubsetOf(502, 503, 504);
        assertNoneLostAndNoForeignIp(load, outcomes);

        platform.borders.get("border-b").restart();
        platform.awaitBorderReady("border-b");
        awaitAllBordersLive();
    }

    @Test
    @Order(3)
    void rollingRestartWithSigtermFailsNoDelivery() {
        DeliveryLoad load = DeliveryLoad.start(platform, sink, "rolling", LOAD_PERIOD);
        awaitDeliveries(load, 10);
        for (String border : Platform.BORDERS.keySet()) {
            ServiceProcess process = platform.borders.get(border);
            Instant terminated = Instant.now();
            process.terminate();
            assertThat(process.awaitExit(Duration.ofSeconds(30)))
                    .as(border + " exits after SIGTERM")
                    .isTrue();
            System.out.printf(
                    "[rolling] %s exited %d ms after SIGTERM (code %d)%n",
                    border, Duration.between(terminated, Instant.now()).toMillis(), process.exitCode());
            process.restart();
            platform.awaitBorderReady(border);
            awaitAllBordersLive();
        }
        int before = load.delivered().size();
        awaitDeliveries(load, before + 10);
        List<Outcome> outcomes = load.stop();

        List<Outcome> failed = outcomes.stream().filter(o -> !isSuccess(o)).toList();
        System.out.printf("[rolling] deliveries: %d, failed: %d%n", outcomes.size(), failed.size());
        assertThat(failed).isEmpty();
        assertNoneLostAndNoForeignIp(load, outcomes);
    }

    @Test
    @Order(4)
    void registryOutageServesFromTheLastSnapshotThenFailsDedicatedTrafficClosed() {
        DeliveryLoad load = DeliveryLoad.start(platform, sink, "outage", LOAD_PERIOD);
        awaitDeliveries(load, 10);

        Instant killed = Instant.now();
        platform.coordination.kill();
        assertThat(platform.coordination.awaitExit(Duration.ofSeconds(10))).isTrue();
        Instant staleAt = killed.plus(Platform.MAX_STALENESS);
        // Fails closed once the snapshot is older than max-staleness: wait for the first such refusal.
        await("dedicated traffic fails closed")
                .atMost(Duration.ofSeconds(25))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> load.outcomesSoFar().stream()
                        .anyMatch(o -> o.tenant().equals("acme")
                                && o.status() == 503
                                && o.sentAt().isAfter(staleAt)));
        await("registry down for 20 s")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> Duration.between(killed, Instant.now()).compareTo(Duration.ofSeconds(20)) >= 0);

        long ageAtRestart = Math.min(platform.snapshotAgeMillis(0), platform.snapshotAgeMillis(1));
        platform.coordination.restart();
        Instant restarted = Instant.now();
        // Converged: both Apps read the restarted registry again (fresh snapshot) and it holds every
        // Border, which re-registered by itself on a new session.
        Set<String> all = new TreeSet<>(Platform.BORDERS.keySet());
        await("both Apps read a registry holding every Border again")
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> platform.snapshotAgeMillis(0) < 2_000
                        && platform.snapshotAgeMillis(1) < 2_000
                        && platform.liveBorders(0).equals(all)
                        && platform.liveBorders(1).equals(all));
        Duration convergence = Duration.between(restarted, Instant.now());
        Instant converged = Instant.now();
        await("dedicated deliveries flow again")
                .atMost(Duration.ofSeconds(20))
                .until(() -> load.outcomesSoFar().stream()
                        .anyMatch(o -> o.tenant().equals("acme")
                                && isSuccess(o)
                                && o.sentAt().isAfter(converged)));
        List<Outcome> outcomes = load.stop();

        // Within max-staleness (with a margin for detection of the outage) everything was served.
        Instant servedUntil = staleAt.minus(Duration.ofSeconds(2));
        List<Outcome> withinStaleness =
                outcomes.stream().filter(o -> o.sentAt().isBefore(servedUntil)).toList();
        List<Outcome> acmeBeyond = outcomes.stream()
                .filter(o -> o.tenant().equals("acme"))
                .filter(o -> o.sentAt().isAfter(staleAt.plus(Duration.ofSeconds(2)))
                        && o.sentAt().isBefore(restarted))
                .toList();
        System.out.printf(
                "[registry outage] snapshot age when the node came back: %d ms; served within staleness:"
                        + " %d (failed %d); acme beyond staleness: %d (503: %d); convergence after restart: %d ms%n",
                ageAtRestart,
                withinStaleness.size(),
                withinStaleness.stream().filter(o -> !isSuccess(o)).count(),
                acmeBeyond.size(),
                acmeBeyond.stream().filter(o -> o.status() == 503).count(),
                convergence.toMillis());

        assertThat(ageAtRestart).as("the Apps saw the outage").isGreaterThan(Platform.MAX_STALENESS.toMillis());
        assertThat(withinStaleness).isNotEmpty().allMatch(PlatformFaultsIT::isSuccess);
        assertThat(acmeBeyond).isNotEmpty().allMatch(o -> o.status() == 503 && "no-egress-available".equals(o.slug()));
        assertNoneLostAndNoForeignIp(load, outcomes);
    }

    @Test
    @Order(5)
    void badInputAtEveryDoorCausesNoServerErrorAndNeverPoisonsTheSnapshot() throws Exception {
        BadInput bad = new BadInput(platform, sink);
        Map<String, Integer> statuses = bad.sendEverywhere();
        System.out.printf("[bad input] %d requests: %s%n", statuses.size(), statuses);
        assertThat(statuses)
                .allSatisfy((name, status) -> assertThat(status).as(name).isBetween(400, 499));

        int slowClients = bad.holdSlowClientsWhile(() -> {
            Http.Response ok = deliverOnce("slow-clients");
            assertThat(ok.status()).as(ok.text()).isEqualTo(200);
        });
        System.out.printf("[bad input] %d slow clients held open while a delivery succeeded%n", slowClients);

        int rogue = bad.publishMalformedAnnouncements();
        await("malformed owners counted, snapshot intact")
                .atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> {
                    assertThat(platform.liveBorders(0)).isEqualTo(new TreeSet<>(Platform.BORDERS.keySet()));
                    assertThat(platform.liveBorders(1)).isEqualTo(new TreeSet<>(Platform.BORDERS.keySet()));
                });
        Http.Response after = deliverOnce("after-rogue");
        System.out.printf(
                "[bad input] %d malformed announcements in the registry; delivery afterwards: %d%n",
                rogue, after.status());
        assertThat(after.status()).as(after.text()).isEqualTo(200);
        bad.close();
        for (ServiceProcess service : platform.apps) {
            assertThat(service.isAlive()).as(service.name()).isTrue();
        }
        for (ServiceProcess service : platform.borders.values()) {
            assertThat(service.isAlive()).as(service.name()).isTrue();
        }
    }

    private Http.Response deliverOnce(String id) {
        return platform.http.post(
                platform.appUri(0, "/v1/deliveries"),
                Platform.API_TOKEN,
                "{\"tenantId\":\"acme\",\"url\":\"%s/hook\",\"payload\":{\"id\":\"%s\"}}"
                        .formatted(sink.baseUri(), id));
    }

    private void awaitAllBordersLive() {
        Set<String> all = new TreeSet<>(Platform.BORDERS.keySet());
        await("both Apps see every Border")
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> platform.liveBorders(0).equals(all)
                        && platform.liveBorders(1).equals(all));
    }

    private static void awaitDeliveries(DeliveryLoad load, int count) {
        await("%d deliveries at the sink".formatted(count))
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> load.delivered().size() >= count);
    }

    private static boolean isSuccess(Outcome outcome) {
        return outcome.status() == 200;
    }

    /** Every 200 reached the sink, and no delivery left from an IP outside its tenant's set. */
    private static void assertNoneLostAndNoForeignIp(DeliveryLoad load, List<Outcome> outcomes) {
        Map<String, RecordingSink.Received> delivered = load.delivered();
        List<String> lost = outcomes.stream()
                .filter(PlatformFaultsIT::isSuccess)
                .map(Outcome::id)
                .filter(id -> !delivered.containsKey(id))
                .toList();
        long foreignDedicated = delivered.entrySet().stream()
                .filter(e -> DeliveryLoad.tenantOf(e.getKey()).equals("acme"))
                .filter(e -> !Platform.ACME_IPS.contains(e.getValue().peer().getHostAddress()))
                .count();
        long foreignShared = delivered.entrySet().stream()
                .filter(e -> DeliveryLoad.tenantOf(e.getKey()).equals("small-co"))
                .filter(e -> !Platform.SHARED_IPS.contains(e.getValue().peer().getHostAddress()))
                .count();
        System.out.printf(
                "  lost silently: %d; dedicated from a foreign IP: %d; shared outside the pool: %d%n",
                lost.size(), foreignDedicated, foreignShared);
        assertThat(lost).as("answered 200 but never reached the sink").isEmpty();
        assertThat(foreignDedicated).isZero();
        assertThat(foreignShared).isZero();
    }
}
