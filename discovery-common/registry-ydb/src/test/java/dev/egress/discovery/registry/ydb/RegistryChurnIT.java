package dev.egress.discovery.registry.ydb;

import static dev.egress.discovery.registry.ydb.RegistryFixture.announcement;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.registry.Registration;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Many Borders publishing, updating and dying at once: every watcher ends on the exact truth. */
class RegistryChurnIT {

    private static final int BORDERS = 50;
    private static final Duration CONVERGE = Duration.ofSeconds(90);

    private RegistryFixture fixture;
    private ExecutorService pool;

    @AfterEach
    void tearDown() {
        if (pool != null) {
            pool.shutdownNow();
        }
        if (fixture != null) {
            fixture.close();
        }
    }

    @Test
    void everyWatcherEndsWithTheLiveBordersAndTheirLatestAnnouncements() {
        fixture = new RegistryFixture(Duration.ofSeconds(1));
        List<RegistryFixture.Watched> watchers = List.of(fixture.watcher(), fixture.watcher(), fixture.watcher());
        Map<BorderId, Registration> live = new ConcurrentHashMap<>();
        pool = Executors.newFixedThreadPool(8);
        List<CompletableFuture<Void>> borders = new ArrayList<>();
        for (int i = 0; i < BORDERS; i++) {
            int n = i;
            borders.add(CompletableFuture.runAsync(() -> runBorder(n, live), pool));
        }
        CompletableFuture.allOf(borders.toArray(CompletableFuture[]::new))
                .orTimeout(120, TimeUnit.SECONDS)
                .join();

        assertThat(live).hasSizeBetween(BORDERS / 3, BORDERS);
        await().atMost(CONVERGE).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            Map<BorderId, Announcement> expected = new HashMap<>();
            live.forEach((id, registration) -> expected.put(id, registration.current()));
            for (RegistryFixture.Watched watched : watchers) {
                assertThat(watched.table().current().announcements()).isEqualTo(expected);
            }
        });
    }

    @Test
    void manyBordersReRegisterAfterANodeRestartWithUpdatesMadeWhileItWasDown() {
        fixture = new RegistryFixture(Duration.ofSeconds(1));
        List<RegistryFixture.Watched> watchers = List.of(fixture.watcher(), fixture.watcher());
        List<Registration> borders = new ArrayList<>();
        for (int n = 0; n < 20; n++) {
            borders.add(
                    fixture.border().register(announcement("border-%02d".formatted(n), "127.0.2.%d".formatted(n + 2))));
        }
        await().atMost(CONVERGE)
                .untilAsserted(
                        () -> assertThat(watchers.get(0).table().current().announcements())
                                .hasSize(20));

        fixture.stopNode();
        for (int n = 0; n < borders.size(); n += 2) {
            Registration border = borders.get(n);
            border.update(border.current().withAllIps(IpStatus.DRAINING));
        }
        fixture.startNode();

        await().atMost(CONVERGE).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            Map<BorderId, Announcement> expected = new HashMap<>();
            borders.forEach(border -> expected.put(border.current().borderId(), border.current()));
            for (RegistryFixture.Watched watched : watchers) {
                assertThat(watched.table().current().announcements()).isEqualTo(expected);
            }
        });
    }

    /** One Border's life: register, update a few times, then stay, close or die. */
    private void runBorder(int n, Map<BorderId, Registration> live) {
        Random random = new Random(n);
        String id = "border-%02d".formatted(n);
        String ip = "127.0.%d.%d".formatted(1 + n / 200, 2 + n % 200);
        YdbBorderRegistry registry = fixture.border();
        Registration registration = registry.register(announcement(id, ip));
        live.put(BorderId.of(id), registration);
        int updates = random.nextInt(5);
        CompletableFuture<Announcement> last = CompletableFuture.completedFuture(null);
        for (int u = 0; u < updates; u++) {
            IpStatus status = IpStatus.values()[random.nextInt(IpStatus.values().length)];
            last = registration.update(registration.current().withIpStatus(EgressIp.of(ip), status));
        }
        switch (n % 6) {
            case 0, 1 -> {
                // Leave gracefully, possibly while an update is still in flight.
                live.remove(BorderId.of(id));
                registration.close();
            }
            case 2 -> {
                // Die once the latest update was published (or at once if there was none).
                last.orTimeout(60, TimeUnit.SECONDS).exceptionally(t -> null).join();
                live.remove(BorderId.of(id));
                registry.abandon();
            }
            default -> {
                // Stay alive, with whatever was published last.
            }
        }
    }
}
