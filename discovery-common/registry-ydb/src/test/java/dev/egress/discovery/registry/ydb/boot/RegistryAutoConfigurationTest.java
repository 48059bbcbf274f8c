package dev.egress.discovery.registry.ydb.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.AnnouncementReader;
import dev.egress.discovery.registry.AnnouncementWriter;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.BorderRegistry;
import dev.egress.discovery.registry.DecisionStore;
import dev.egress.discovery.registry.Registration;
import dev.egress.discovery.registry.RegistryWatcher;
import dev.egress.discovery.registry.RoutingTable;
import dev.egress.discovery.registry.testing.Announcements;
import dev.egress.discovery.registry.ydb.YdbBorderRegistry;
import dev.egress.discovery.registry.ydb.YdbRegistryWatcher;
import dev.egress.discovery.trust.AnnouncementVerifier;
import dev.egress.ydb.coordination.EmbeddedCoordinationNode;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Which registry client each kind of context gets from {@link RegistryAutoConfiguration}, and from what. */
class RegistryAutoConfigurationTest {

    /** Nothing listens on port 1 of loopback: the clients start and keep retrying in the background. */
    private static final String UNREACHABLE = "egress.registry.connection-string=grpc://127.0.0.1:1/local";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(RegistryAutoConfiguration.class))
            .withBean(MeterRegistry.class, SimpleMeterRegistry::new);

    @Configuration(proxyBeanMethods = false)
    static class Publisher {
        @Bean
        AnnouncementWriter announcementWriter() {
            return AnnouncementWriter.unsignedForInsecureLocal();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Watcher {
        @Bean
        RoutingTable routingTable() {
            return new RoutingTable(Clock.systemUTC());
        }

        @Bean
        AnnouncementReader announcementReader() {
            return AnnouncementVerifier.unverifiedForInsecureLocal();
        }
    }

    @Test
    void isRegisteredAsAnAutoConfiguration() {
        assertThat(ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader())
                        .getCandidates())
                .contains(RegistryAutoConfiguration.class.getName());
    }

    @Test
    void aContextThatWritesAnnouncementsPublishesThem() {
        runner.withUserConfiguration(Publisher.class)
                .withPropertyValues(UNREACHABLE)
                .run(context -> {
                    assertThat(context)
                            .hasNotFailed()
                            .hasSingleBean(BorderRegistry.class)
                            .doesNotHaveBean(RegistryWatcher.class);
                    assertThat(context.getBean(BorderRegistry.class)).isInstanceOf(YdbBorderRegistry.class);
                });
    }

    @Test
    void aPublisherRefusesToStartWithoutAConnectionString() {
        runner.withUserConfiguration(Publisher.class)
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .hasStackTraceContaining("egress.registry.connection-string: not set"));
    }

    @Test
    void aSuppliedRegistryWins() {
        BorderRegistry supplied = new BorderRegistry() {
            @Override
            public Registration register(Announcement initial) {
                throw new UnsupportedOperationException();
            }

            @Override
            public DecisionStore decisions(BorderId borderId) {
                throw new UnsupportedOperationException();
            }

            @Override
            public void close() {}
        };
        runner.withUserConfiguration(Publisher.class)
                .withBean(BorderRegistry.class, () -> supplied)
                .run(context -> assertThat(context)
                        .hasNotFailed()
                        .getBean(BorderRegistry.class)
                        .isSameAs(supplied));
    }

    @Test
    void aContextThatReadsAnnouncementsIntoARoutingTableWatches() {
        runner.withUserConfiguration(Watcher.class)
                .withPropertyValues(UNREACHABLE)
                .run(context -> {
                    assertThat(context)
                            .hasNotFailed()
                            .hasSingleBean(RegistryWatcher.class)
                            .doesNotHaveBean(BorderRegistry.class);
                    assertThat(context.getBean(RegistryWatcher.class)).isInstanceOf(YdbRegistryWatcher.class);
                });
    }

    @Test
    void aWatcherStartsOnlyWithAConnectionString() {
        runner.withUserConfiguration(Watcher.class)
                .run(context -> assertThat(context)
                        .hasNotFailed()
                        .doesNotHaveBean(RegistryWatcher.class)
                        .doesNotHaveBean(BorderRegistry.class));
        runner.withUserConfiguration(Watcher.class)
                .withPropertyValues("egress.registry.connection-string= ")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(RegistryWatcher.class));
    }

    @Test
    void aWatcherPollsAtTheIntervalItsOwnerValidatedAndReadsNoPropertyOfItsOwn() {
        // The owner's value reaches the watcher's settings (which refuse 5 ms) ...
        runner.withUserConfiguration(Watcher.class)
                .withBean(WatcherPolling.class, () -> () -> Duration.ofMillis(5))
                .withPropertyValues(UNREACHABLE)
                .run(context ->
                        assertThat(context).hasFailed().getFailure().hasStackTraceContaining("pollInterval: PT0.005S"));
        // ... and the property is the owner's alone: the watcher does not bind it a second time.
        runner.withUserConfiguration(Watcher.class)
                .withBean(WatcherPolling.class, () -> () -> Duration.ofMillis(100))
                .withPropertyValues(UNREACHABLE, "egress.routing.poll-interval=0")
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(RegistryWatcher.class));
    }

    @Test
    void aContextWithNeitherSideGetsNoClient() {
        runner.withPropertyValues(UNREACHABLE)
                .run(context -> assertThat(context)
                        .hasNotFailed()
                        .doesNotHaveBean(RegistryWatcher.class)
                        .doesNotHaveBean(BorderRegistry.class)
                        .hasSingleBean(RegistryProperties.class));
    }

    @Test
    void bothSidesRefuseATokenOverPlaintextUnlessInsecureLocal() {
        for (Class<?> side : new Class<?>[] {Publisher.class, Watcher.class}) {
            runner.withUserConfiguration(side)
                    .withPropertyValues(UNREACHABLE, "egress.registry.token=s3cret-ydb")
                    .run(context -> assertThat(context)
                            .hasFailed()
                            .getFailure()
                            .hasStackTraceContaining("egress.registry.token/token-file")
                            .hasStackTraceContaining("egress.security.insecure-local")
                            .satisfies(e -> assertThat(e.toString()).doesNotContain("s3cret")));
            runner.withUserConfiguration(side)
                    .withPropertyValues(
                            UNREACHABLE, "egress.registry.token=s3cret-ydb", "egress.security.insecure-local=true")
                    .run(context -> assertThat(context).hasNotFailed());
        }
    }

    @Test
    void refusesABlankNodeOrSemaphore() {
        runner.withUserConfiguration(Watcher.class)
                .withPropertyValues("egress.registry.node= ")
                .run(context -> assertThat(context).hasFailed().getFailure().hasStackTraceContaining("node"));
        runner.withUserConfiguration(Publisher.class)
                .withPropertyValues(UNREACHABLE, "egress.registry.semaphore=")
                .run(context -> assertThat(context).hasFailed().getFailure().hasStackTraceContaining("semaphore"));
    }

    @Test
    void aWatcherSeesWhatAPublisherRegistersThroughTheRealRegistry() {
        try (EmbeddedCoordinationNode node = EmbeddedCoordinationNode.start(
                EmbeddedCoordinationNode.DEFAULT_HOST, 0, EmbeddedCoordinationNode.DEFAULT_DATABASE)) {
            String connection = "egress.registry.connection-string=" + node.connectionString();
            runner.withUserConfiguration(Publisher.class)
                    .withPropertyValues(connection)
                    .run(border -> {
                        border.getBean(BorderRegistry.class)
                                .register(Announcements.of("border-a", "http://127.0.0.1:8181", "127.0.0.3"));
                        runner.withUserConfiguration(Watcher.class)
                                .withPropertyValues(connection, "egress.routing.poll-interval=100ms")
                                .run(app -> {
                                    RoutingTable table = app.getBean(RoutingTable.class);
                                    await().atMost(Duration.ofMinutes(1))
                                            .untilAsserted(() -> assertThat(
                                                            table.current().announcements())
                                                    .containsKey(BorderId.of("border-a")));
                                });
                    });
        }
    }
}
