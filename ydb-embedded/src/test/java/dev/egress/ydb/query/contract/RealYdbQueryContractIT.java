package dev.egress.ydb.query.contract;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.egress.ydb.coordination.testing.ListenPorts;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/**
 * The same Query-service contract suites against real YDB: {@code YDB_ENDPOINT} (e.g. {@code grpc://host:2136})
 * with {@code YDB_DATABASE} (default {@code /local}) when set, else {@code ydbplatform/local-ydb} in Docker.
 * Skipped, with that reason, where neither is available. TTL (swept after ≥ 15 min in YDB) and the constructs the
 * embedded node refuses are not asserted here.
 */
class RealYdbQueryContractIT {

    private static final DockerImageName IMAGE = DockerImageName.parse("ydbplatform/local-ydb:24.4");

    private static GenericContainer<?> ydb;
    private static String connectionString;

    @BeforeAll
    @SuppressWarnings("resource")
    static void connect() {
        String endpoint = System.getenv("YDB_ENDPOINT");
        if (endpoint != null && !endpoint.isBlank()) {
            String db = System.getenv().getOrDefault("YDB_DATABASE", "/local");
            connectionString = endpoint + (db.startsWith("/") ? db : "/" + db);
            return;
        }
        assumeTrue(
                DockerClientFactory.instance().isDockerAvailable(),
                "no YDB_ENDPOINT and no Docker engine for ydbplatform/local-ydb");
        int port = ListenPorts.freeOutsideEphemeralRange();
        ydb = new FixedPortYdb(IMAGE, port)
                .withEnv("GRPC_PORT", String.valueOf(port))
                .withEnv("GRPC_TLS_PORT", String.valueOf(ListenPorts.freeOutsideEphemeralRange()))
                .withEnv("MON_PORT", String.valueOf(ListenPorts.freeOutsideEphemeralRange()))
                .withEnv("YDB_USE_IN_MEMORY_PDISKS", "true")
                .withCreateContainerCmdModifier(cmd -> cmd.withHostName("localhost"))
                .waitingFor(Wait.forHealthcheck().withStartupTimeout(Duration.ofMinutes(3)));
        ydb.start();
        connectionString = "grpc://localhost:" + port + "/local";
    }

    @AfterAll
    static void stop() {
        if (ydb != null) {
            ydb.stop();
        }
    }

    @Nested
    class Statements extends StatementContractSuite {
        @Override
        protected String connectionString() {
            return connectionString;
        }
    }

    @Nested
    class Transactions extends TransactionContractSuite {
        @Override
        protected String connectionString() {
            return connectionString;
        }
    }

    /** Maps the gRPC port 1:1: local-ydb advertises its own GRPC_PORT through discovery. */
    private static final class FixedPortYdb extends GenericContainer<FixedPortYdb> {
        FixedPortYdb(DockerImageName image, int port) {
            super(image);
            addFixedExposedPort(port, port);
        }
    }
}
