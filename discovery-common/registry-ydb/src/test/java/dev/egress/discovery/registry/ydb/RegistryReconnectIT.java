package dev.egress.discovery.registry.ydb;

import static dev.egress.discovery.registry.ydb.RegistryFixture.announcement;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.registry.Registration;
import dev.egress.discovery.registry.RegistrationState;
import dev.egress.discovery.registry.RoutingSnapshot;
import dev.egress.ydb.coordination.testing.StreamCutter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Network blips: the session stream breaks but the session survives on the server, so the SDK
 * reattaches it. Polling is slowed to a minute here, so only a re-armed watch can deliver changes.
 */
class RegistryReconnectIT {

    private static final Duration CONVERGE = Duration.ofSeconds(30);
    private static final Duration NO_POLL = Duration.ofSeconds(60);

    @AutoClose
    private RegistryFixture fixture;

    @Test
    void borderKeepsItsSlotThroughReattachesAndUpdatesMadeMeanwhileArrive() throws Exception {
        fixture = new RegistryFixture(Duration.ofSeconds(5), NO_POLL);
        RegistryFixture.Watched watched = fixture.watcher();
        StreamCutter cutter = new StreamCutter();
        SimpleMeterRegistry borderMeters = new SimpleMeterRegistry();
        Registration a = fixture.border(borderMeters, List.of(cutter)).register(announcement("border-a", "127.0.0.2"));
        await().atMost(CONVERGE).until(() -> watched.has("border-a") && a.state() == RegistrationState.REGISTERED);
        List<RoutingSnapshot> seen = new CopyOnWriteArrayList<>();
        watched.table().addListener(seen::add);

        // Several blips in a row: SDK 2.2.10 cannot reattach one session twice, so this covers the rotation.
        for (int i = 0; i < 3; i++) {
            assertThat(cutter.cut()).isEqualTo(1);
            IpStatus status = i % 2 == 0 ? IpStatus.DRAINING : IpStatus.ACTIVE;
            CompletableFuture<Announcement> update = a.update(a.current().withAllIps(status));

            assertThat(update.get(30, TimeUnit.SECONDS)).isEqualTo(a.current());
            await().atMost(CONVERGE)
                    .untilAsserted(() -> assertThat(watched.of("border-a")).isEqualTo(a.current()));
            await().atMost(CONVERGE).until(() -> cutter.open() == 1); // the old session was stopped
        }
        // The slot never left the registry: every snapshot App saw had the Border in it.
        assertThat(seen)
                .isNotEmpty()
                .allSatisfy(snapshot -> assertThat(snapshot.announcements()).hasSize(1));
        assertThat(borderMeters.get("egress.registry.reregistrations").counter().count())
                .isZero();
    }

    @Test
    void watcherReArmsItsWatchAfterAReattach() throws Exception {
        fixture = new RegistryFixture(Duration.ofSeconds(5), NO_POLL);
        StreamCutter cutter = new StreamCutter();
        RegistryFixture.Watched watched = fixture.watcher(List.of(cutter));
        Registration a = fixture.border().register(announcement("border-a", "127.0.0.2"));
        await().atMost(CONVERGE)
                .untilAsserted(() -> assertThat(watched.of("border-a")).isEqualTo(a.current()));

        for (int i = 0; i < 3; i++) {
            assertThat(cutter.cut()).isEqualTo(1);
            IpStatus status = i % 2 == 0 ? IpStatus.DRAINING : IpStatus.ACTIVE;
            a.update(a.current().withAllIps(status)).get(30, TimeUnit.SECONDS);
            await().atMost(CONVERGE)
                    .untilAsserted(() -> assertThat(watched.of("border-a")).isEqualTo(a.current()));
        }
        assertThat(watched.meters()
                        .get("egress.registry.watch.failures")
                        .counter()
                        .count())
                .isPositive();
    }
}
