package dev.egress.discovery.registry.ydb;

import static dev.egress.discovery.registry.ydb.RegistryFixture.announcement;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.registry.Registration;
import dev.egress.discovery.registry.RegistrationState;
import dev.egress.discovery.registry.RoutingSnapshot;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** The registry goes away and comes back: nobody restarts, everybody converges on the truth. */
class RegistryRestartIT {

    private static final Duration CONVERGE = Duration.ofSeconds(60);

    @AutoClose
    private RegistryFixture fixture;

    @Test
    void bordersReRegisterAndWatchersConvergeAfterANodeRestart() {
        fixture = new RegistryFixture(Duration.ofSeconds(1));
        RegistryFixture.Watched first = fixture.watcher();
        RegistryFixture.Watched second = fixture.watcher();
        Registration a = fixture.border().register(announcement("border-a", "127.0.0.2"));
        Registration b = fixture.border().register(announcement("border-b", "127.0.0.3"));
        await().atMost(CONVERGE)
                .until(() -> first.has("border-a")
                        && first.has("border-b")
                        && second.has("border-a")
                        && second.has("border-b"));

        fixture.stopNode();
        fixture.startNode(); // empty: no node, no semaphore, no sessions

        await().atMost(CONVERGE)
                .until(() -> a.state() == RegistrationState.REGISTERED && b.state() == RegistrationState.REGISTERED);
        await().atMost(CONVERGE).untilAsserted(() -> {
            for (RegistryFixture.Watched watched : new RegistryFixture.Watched[] {first, second}) {
                assertThat(watched.of("border-a")).isEqualTo(a.current());
                assertThat(watched.of("border-b")).isEqualTo(b.current());
            }
        });
    }

    @Test
    void watcherKeepsTheLastSnapshotWhileTheRegistryIsDownAndConvergesWhenItIsBack() {
        fixture = new RegistryFixture(Duration.ofSeconds(1));
        RegistryFixture.Watched watched = fixture.watcher();
        Registration a = fixture.border().register(announcement("border-a", "127.0.0.2"));
        await().atMost(CONVERGE).until(() -> watched.has("border-a"));
        RoutingSnapshot before = watched.table().current();

        fixture.stopNode();

        // Down: the snapshot stays, its age grows past several poll intervals, failures are counted.
        Duration ageThen = watched.table().age();
        await().atMost(CONVERGE).until(() -> watched.table().age().compareTo(ageThen.plusSeconds(2)) > 0);
        assertThat(watched.table().current()).isSameAs(before);
        await().atMost(CONVERGE)
                .until(() -> watched.meters()
                                .get("egress.registry.poll.failures")
                                .counter()
                                .count()
                        > 0);
        assertThat(watched.meters().get("egress.routing.snapshot.age").gauge().value())
                .isGreaterThan(2.0);

        // An update while the registry is down must not be lost.
        CompletableFuture<Announcement> update = a.update(a.current().withAllIps(IpStatus.DRAINING));

        fixture.startNode();

        await().atMost(CONVERGE).until(update::isDone);
        assertThat(update).isCompletedWithValue(a.current());
        await().atMost(CONVERGE)
                .untilAsserted(() -> assertThat(watched.of("border-a")).isEqualTo(a.current()));
        await().atMost(CONVERGE).until(() -> watched.table().age().compareTo(Duration.ofSeconds(2)) < 0);
        assertThat(watched.meters()
                        .get("egress.registry.session.state")
                        .tag("state", "CONNECTED")
                        .gauge()
                        .value())
                .isEqualTo(1);
    }

    @Test
    void bordersAndWatchersStartWhileTheRegistryIsDown() {
        fixture = new RegistryFixture(Duration.ofSeconds(1));
        fixture.stopNode();

        RegistryFixture.Watched watched = fixture.watcher();
        Registration a = fixture.border().register(announcement("border-a", "127.0.0.2"));
        assertThat(a.state()).isIn(RegistrationState.REGISTERING, RegistrationState.FAILED);
        await().atMost(CONVERGE).until(() -> a.state() == RegistrationState.FAILED);
        assertThat(watched.table().isReady()).isFalse();

        fixture.startNode();

        await().atMost(CONVERGE).until(() -> a.state() == RegistrationState.REGISTERED);
        await().atMost(CONVERGE)
                .untilAsserted(() -> assertThat(watched.of("border-a")).isEqualTo(a.current()));
    }
}
