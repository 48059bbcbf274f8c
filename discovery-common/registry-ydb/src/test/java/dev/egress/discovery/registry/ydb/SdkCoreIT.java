package dev.egress.discovery.registry.ydb;

import static dev.egress.discovery.registry.ydb.RegistryFixture.announcement;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.discovery.registry.Registration;
import java.time.Duration;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import tech.ydb.core.grpc.GrpcTransport;

/**
 * The adapter on the YDB SDK core of each line: 2.2 (the coordination client's own) in the default Failsafe execution,
 * and 2.3, which a JVM gets as soon as it also runs the Query client of that line, in this module's
 * {@code sdk-core-2.3} execution, which swaps the core under the same registry tests. The first test proves each
 * execution runs on the core it names ({@code egress.test.ydb-sdk-core}), so the swap cannot silently not happen.
 */
class SdkCoreIT {

    @AutoClose
    private RegistryFixture fixture;

    @Test
    void runsOnTheCoreItsExecutionNames() {
        String expected = System.getProperty("egress.test.ydb-sdk-core", "(egress.test.ydb-sdk-core is not set)");
        assertThat(GrpcTransport.class
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation()
                        .toString())
                .endsWith("/ydb-sdk-core-" + expected + ".jar");
    }

    @Test
    void aBorderPublishesAndAWatcherSeesItThenTheBorderDiesAndIsGone() {
        fixture = new RegistryFixture(Duration.ofSeconds(1));
        RegistryFixture.Watched watched = fixture.watcher();
        YdbBorderRegistry border = fixture.border();
        Registration registration = border.register(announcement("border-a", "127.0.0.2"));

        await().atMost(Duration.ofSeconds(30)).until(() -> watched.has("border-a"));
        assertThat(watched.of("border-a")).isEqualTo(registration.current());

        border.abandon(); // every open call breaks, as when the process dies: the session expires with its slot
        await().atMost(Duration.ofSeconds(30)).until(() -> !watched.has("border-a"));
    }
}
