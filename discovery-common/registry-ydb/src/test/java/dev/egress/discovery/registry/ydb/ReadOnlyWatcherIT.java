package dev.egress.discovery.registry.ydb;

import static dev.egress.discovery.registry.ydb.RegistryFixture.announcement;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.discovery.registry.Registration;
import java.time.Duration;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import tech.ydb.coordination.CoordinationClient;
import tech.ydb.coordination.CoordinationSession;
import tech.ydb.core.StatusCode;
import tech.ydb.core.grpc.GrpcTransport;

/** An App with read-only registry rights creates nothing, waits not ready, and follows once a Border created the registry. */
class ReadOnlyWatcherIT {

    private static final Duration CONVERGE = Duration.ofSeconds(30);

    @AutoClose
    private RegistryFixture fixture;

    private StatusCode node() {
        try (GrpcTransport transport = GrpcTransport.forConnectionString(
                        fixture.settings().connectionString())
                .build()) {
            return CoordinationClient.newClient(transport)
                    .describeNode("egress")
                    .join()
                    .getStatus()
                    .getCode();
        }
    }

    @Test
    void createsNeitherNodeNorSemaphoreAndBecomesReadyOnceABorderHas() {
        fixture = new RegistryFixture(Duration.ofSeconds(2), Duration.ofMillis(200));
        RegistryFixture.Watched app = fixture.readOnlyWatcher();

        await().during(Duration.ofSeconds(2))
                .atMost(CONVERGE)
                .until(() -> !app.table().isReady());
        // YDB answers a missing path with SCHEME_ERROR ("path does not exist").
        assertThat(node())
                .as("the node was not created by the App")
                .isIn(StatusCode.SCHEME_ERROR, StatusCode.NOT_FOUND);

        // The node alone (an operator created it) is not enough: the semaphore is a Border's to create.
        try (GrpcTransport transport = GrpcTransport.forConnectionString(
                        fixture.settings().connectionString())
                .build()) {
            assertThat(CoordinationClient.newClient(transport)
                            .createNode("egress")
                            .join()
                            .isSuccess())
                    .isTrue();
            CoordinationSession look = CoordinationClient.newClient(transport).createSession("egress");
            assertThat(look.connect().join().isSuccess()).isTrue();
            await().during(Duration.ofSeconds(2))
                    .atMost(CONVERGE)
                    .until(() -> !app.table().isReady());
            assertThat(look.describeSemaphore(
                                    "borders-registry", tech.ydb.coordination.settings.DescribeSemaphoreMode.DATA_ONLY)
                            .join()
                            .getStatus()
                            .getCode())
                    .as("the semaphore was not created by the App")
                    .isEqualTo(StatusCode.NOT_FOUND);
            look.close();
        }

        Registration a = fixture.border().register(announcement("border-a", "127.0.0.2"));
        await().atMost(CONVERGE)
                .untilAsserted(() -> assertThat(app.of("border-a")).isEqualTo(a.current()));
        assertThat(app.table().isReady()).isTrue();
    }

    @Test
    void aCreatingWatcherStillCreatesTheRegistry() {
        fixture = new RegistryFixture(Duration.ofSeconds(2), Duration.ofMillis(200));
        RegistryFixture.Watched app = fixture.watcher();
        await().atMost(CONVERGE).until(() -> app.table().isReady());
        assertThat(node()).isEqualTo(StatusCode.SUCCESS);
    }
}
