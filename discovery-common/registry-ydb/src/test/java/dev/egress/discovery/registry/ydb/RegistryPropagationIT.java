package dev.egress.discovery.registry.ydb;

import static dev.egress.discovery.registry.ydb.RegistryFixture.announcement;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.registry.Registration;
import dev.egress.discovery.registry.RegistrationState;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** Publish and watch over real gRPC against the embedded coordination node. */
class RegistryPropagationIT {

    private static final Duration CONVERGE = Duration.ofSeconds(30);

    @AutoClose
    private RegistryFixture fixture;

    @Test
    void publishedAnnouncementIsVisibleToTwoIndependentWatchers() {
        fixture = new RegistryFixture(Duration.ofSeconds(2));
        RegistryFixture.Watched first = fixture.watcher();
        RegistryFixture.Watched second = fixture.watcher();
        Registration registration = fixture.border().register(announcement("border-a", "127.0.0.2", "127.0.0.3"));

        await().atMost(CONVERGE).until(() -> registration.state() == RegistrationState.REGISTERED);
        await().atMost(CONVERGE).untilAsserted(() -> {
            assertThat(first.of("border-a")).isEqualTo(registration.current());
            assertThat(second.of("border-a")).isEqualTo(registration.current());
        });
        assertThat(first.table().isReady()).isTrue();
        assertThat(first.meters().get("egress.routing.ips.live").gauge().value())
                .isEqualTo(2);
        assertThat(first.meters()
                        .get("egress.registry.session.state")
                        .tag("state", "CONNECTED")
                        .gauge()
                        .value())
                .isEqualTo(1);
    }

    @Test
    void updateIsVisibleWithTheNextGeneration() throws Exception {
        fixture = new RegistryFixture(Duration.ofSeconds(2));
        RegistryFixture.Watched watched = fixture.watcher();
        Registration registration = fixture.border().register(announcement("border-a", "127.0.0.2", "127.0.0.3"));
        await().atMost(CONVERGE).until(() -> watched.has("border-a"));
        long before = registration.current().generation();

        Announcement published = registration
                .update(registration.current().withIpStatus(EgressIp.of("127.0.0.3"), IpStatus.DRAINING))
                .get(30, TimeUnit.SECONDS);

        assertThat(published.generation()).isEqualTo(before + 1);
        assertThat(registration.current()).isEqualTo(published);
        await().atMost(CONVERGE)
                .untilAsserted(() -> assertThat(watched.of("border-a")).isEqualTo(published));
        assertThat(watched.table().current().status(EgressIp.of("127.0.0.3"))).contains(IpStatus.DRAINING);
        await().atMost(CONVERGE)
                .untilAsserted(() -> assertThat(watched.meters()
                                .get("egress.registry.propagation.lag")
                                .timer()
                                .count())
                        .isPositive());
    }

    @Test
    void manyQuickUpdatesConvergeOnTheLatest() throws Exception {
        fixture = new RegistryFixture(Duration.ofSeconds(2));
        RegistryFixture.Watched watched = fixture.watcher();
        Registration registration = fixture.border().register(announcement("border-a", "127.0.0.2"));
        Announcement last = null;
        for (int i = 0; i < 20; i++) {
            IpStatus status = i % 2 == 0 ? IpStatus.DRAINING : IpStatus.ACTIVE;
            last = registration
                    .update(registration.current().withAllIps(status))
                    .get(30, TimeUnit.SECONDS);
        }
        Announcement expected = last;
        assertThat(expected.generation()).isEqualTo(20);
        await().atMost(CONVERGE)
                .untilAsserted(() -> assertThat(watched.of("border-a")).isEqualTo(expected));
    }

    @Test
    void gracefulCloseRemovesTheSlotWellBeforeTheSessionTimeout() {
        Duration sessionTimeout = Duration.ofSeconds(20);
        fixture = new RegistryFixture(sessionTimeout);
        RegistryFixture.Watched watched = fixture.watcher();
        Registration registration = fixture.border().register(announcement("border-a", "127.0.0.2"));
        await().atMost(CONVERGE).until(() -> watched.has("border-a"));

        long start = System.nanoTime();
        registration.close();

        assertThat(registration.state()).isEqualTo(RegistrationState.CLOSED);
        await().atMost(sessionTimeout.dividedBy(2)).until(() -> !watched.has("border-a"));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(sessionTimeout);
    }

    @Test
    void borderThatDiesWithoutClosingDisappearsAfterTheSessionTimeoutNotBefore() {
        Duration sessionTimeout = Duration.ofSeconds(3);
        fixture = new RegistryFixture(sessionTimeout);
        RegistryFixture.Watched watched = fixture.watcher();
        YdbBorderRegistry border = fixture.border();
        border.register(announcement("border-a", "127.0.0.2"));
        await().atMost(CONVERGE).until(() -> watched.has("border-a"));

        long start = System.nanoTime();
        border.abandon(); // every stream breaks without session_stop, as when the process dies

        // The server keeps a detached session for its timeout; the slot must survive that long...
        await().during(sessionTimeout.dividedBy(2))
                .atMost(sessionTimeout.multipliedBy(2))
                .until(() -> watched.has("border-a"));
        // ...and then go by itself, never before the timeout (a lower bound: safe on a loaded machine).
        await().atMost(CONVERGE).pollInterval(Duration.ofMillis(20)).until(() -> !watched.has("border-a"));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(sessionTimeout.minusMillis(50));
    }

    @Test
    void closedRegistrationRefusesUpdates() {
        fixture = new RegistryFixture(Duration.ofSeconds(2));
        Registration registration = fixture.border().register(announcement("border-a", "127.0.0.2"));
        registration.close();
        registration.close(); // idempotent

        assertThat(registration.update(registration.current())).isCompletedExceptionally();
        assertThat(registration.state()).isEqualTo(RegistrationState.CLOSED);
    }
}
