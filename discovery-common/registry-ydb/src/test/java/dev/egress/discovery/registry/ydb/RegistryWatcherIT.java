package dev.egress.discovery.registry.ydb;

import static dev.egress.discovery.registry.ydb.RegistryFixture.announcement;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.registry.Registration;
import dev.egress.discovery.registry.RegistrationState;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import tech.ydb.coordination.CoordinationClient;
import tech.ydb.coordination.CoordinationSession;
import tech.ydb.core.grpc.GrpcTransport;

/** The watcher's loop survives whatever is thrown at it. */
class RegistryWatcherIT {

    private static final Duration CONVERGE = Duration.ofSeconds(30);

    @AutoClose
    private RegistryFixture fixture;

    @Test
    void appStartsBeforeAnyBorderAndSeesAnEmptyRegistry() {
        fixture = new RegistryFixture(Duration.ofSeconds(2));
        RegistryFixture.Watched watched = fixture.watcher();

        await().atMost(CONVERGE).until(() -> watched.table().isReady());
        assertThat(watched.table().current().announcements()).isEmpty();

        Registration a = fixture.border().register(announcement("border-a", "127.0.0.2"));
        await().atMost(CONVERGE)
                .untilAsserted(() -> assertThat(watched.of("border-a")).isEqualTo(a.current()));
    }

    @Test
    void listenerThatThrowsDoesNotStopTheWatcher() throws Exception {
        fixture = new RegistryFixture(Duration.ofSeconds(2));
        RegistryFixture.Watched watched = fixture.watcher();
        AtomicInteger calls = new AtomicInteger();
        watched.table().addListener(snapshot -> {
            calls.incrementAndGet();
            throw new IllegalStateException("listener bug");
        });
        Registration a = fixture.border().register(announcement("border-a", "127.0.0.2"));
        await().atMost(CONVERGE).until(() -> watched.has("border-a"));

        for (int i = 0; i < 3; i++) {
            IpStatus status = i % 2 == 0 ? IpStatus.DRAINING : IpStatus.ACTIVE;
            a.update(a.current().withAllIps(status)).get(30, TimeUnit.SECONDS);
            await().atMost(CONVERGE)
                    .untilAsserted(() -> assertThat(watched.of("border-a")).isEqualTo(a.current()));
        }
        assertThat(calls.get()).isGreaterThanOrEqualTo(4);
    }

    @Test
    void semaphoreDeletedByAnOperatorIsRecreatedAndRepopulated() {
        fixture = new RegistryFixture(Duration.ofSeconds(1), Duration.ofMillis(200));
        RegistryFixture.Watched watched = fixture.watcher();
        Registration a = fixture.border().register(announcement("border-a", "127.0.0.2"));
        await().atMost(CONVERGE).until(() -> watched.has("border-a"));

        try (GrpcTransport transport = GrpcTransport.forConnectionString(
                        fixture.settings().connectionString())
                .build()) {
            CoordinationSession operator =
                    CoordinationClient.newClient(transport).createSession("egress");
            assertThat(operator.connect().join().isSuccess()).isTrue();
            assertThat(operator.deleteSemaphore("borders-registry", true).join().isSuccess())
                    .isTrue();
            await().atMost(CONVERGE).until(() -> !watched.has("border-a"));
            operator.close();
        }

        // The watcher recreates the semaphore; the Border's self-check finds its slot gone and republishes.
        await().atMost(CONVERGE)
                .untilAsserted(() -> assertThat(watched.of("border-a")).isEqualTo(a.current()));
        assertThat(a.state()).isEqualTo(RegistrationState.REGISTERED);
    }

    @Test
    void malformedOwnerIsSkippedCountedOnceAndDoesNotHideTheOthers() {
        fixture = new RegistryFixture(Duration.ofSeconds(2), Duration.ofMillis(100));
        RegistryFixture.Watched watched = fixture.watcher();
        Registration a = fixture.border().register(announcement("border-a", "127.0.0.2"));
        await().atMost(CONVERGE).until(() -> watched.has("border-a"));

        try (GrpcTransport transport = GrpcTransport.forConnectionString(
                        fixture.settings().connectionString())
                .build()) {
            CoordinationSession rogue = CoordinationClient.newClient(transport).createSession("egress");
            assertThat(rogue.connect().join().isSuccess()).isTrue();
            byte[] garbage = "{\"version\":1,\"borderId\":\"Not Valid\"}".getBytes(StandardCharsets.UTF_8);
            assertThat(rogue.acquireSemaphore("borders-registry", 1, garbage, Duration.ofSeconds(5))
                            .join()
                            .isSuccess())
                    .isTrue();

            await().atMost(CONVERGE)
                    .until(() -> watched.meters()
                                    .get("egress.registry.announcements.malformed")
                                    .counter()
                                    .count()
                            == 1);
            // Many polls later (100 ms each) and after another Border's update: still counted once.
            a.update(a.current().withAllIps(IpStatus.DRAINING)).join();
            await().atMost(CONVERGE)
                    .untilAsserted(() -> assertThat(watched.of("border-a")).isEqualTo(a.current()));
            await().during(Duration.ofSeconds(1))
                    .atMost(CONVERGE)
                    .until(() -> watched.meters()
                                    .get("egress.registry.announcements.malformed")
                                    .counter()
                                    .count()
                            == 1);
            assertThat(watched.table().current().announcements()).hasSize(1);
            rogue.close();
        }
    }

    @Test
    void closedWatcherKeepsItsLastSnapshot() {
        fixture = new RegistryFixture(Duration.ofSeconds(2));
        RegistryFixture.Watched watched = fixture.watcher();
        Registration a = fixture.border().register(announcement("border-a", "127.0.0.2"));
        await().atMost(CONVERGE).until(() -> watched.has("border-a"));

        watched.watcher().close();
        watched.watcher().close(); // idempotent
        a.close();

        assertThat(watched.has("border-a")).isTrue();
        assertThat(watched.meters()
                        .get("egress.registry.session.state")
                        .tag("state", "CLOSED")
                        .gauge()
                        .value())
                .isEqualTo(1);
    }
}
