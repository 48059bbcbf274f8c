package dev.egress.ydb.coordination.conformance;

import dev.egress.ydb.coordination.testing.ListenPorts;
import java.time.Duration;
import org.junit.jupiter.api.Nested;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.utility.DockerImageName;

/**
 * The same conformance suites against real YDB ({@code ydbplatform/local-ydb}), to catch divergence of the
 * embedded node. Skipped (not failed) where there is no Docker.
 */
@Testcontainers(disabledWithoutDocker = true)
class LocalYdbConformanceIT {

    /** Pinned: a tag published on Docker Hub for ydbplatform/local-ydb. */
    private static final DockerImageName IMAGE = DockerImageName.parse("ydbplatform/local-ydb:24.4");
    /** local-ydb advertises its own GRPC_PORT through discovery, so host and container ports must be equal. */
    private static final int GRPC_PORT = ListenPorts.freeOutsideEphemeralRange();

    @Container
    @SuppressWarnings("resource")
    private static final GenericContainer<?> YDB = new FixedPortYdb(IMAGE, GRPC_PORT)
            .withEnv("GRPC_PORT", String.valueOf(GRPC_PORT))
            .withEnv("GRPC_TLS_PORT", String.valueOf(ListenPorts.freeOutsideEphemeralRange()))
            .withEnv("MON_PORT", String.valueOf(ListenPorts.freeOutsideEphemeralRange()))
            .withEnv("YDB_USE_IN_MEMORY_PDISKS", "true")
            .withCreateContainerCmdModifier(cmd -> cmd.withHostName("localhost"))
            .waitingFor(Wait.forHealthcheck().withStartupTimeout(Duration.ofMinutes(3)));

    private static String connectionStringOfYdb() {
        return "grpc://localhost:" + GRPC_PORT + "/local";
    }

    @Nested
    class Sessions extends SessionConformanceSuite {
        @Override
        protected String connectionString() {
            return connectionStringOfYdb();
        }
    }

    @Nested
    class Semaphores extends SemaphoreConformanceSuite {
        @Override
        protected String connectionString() {
            return connectionStringOfYdb();
        }
    }

    @Nested
    class Acquire extends AcquireConformanceSuite {
        @Override
        protected String connectionString() {
            return connectionStringOfYdb();
        }
    }

    /** Maps the gRPC port 1:1 (Testcontainers' fixed-port binding is protected API, hence the subclass). */
    private static final class FixedPortYdb extends GenericContainer<FixedPortYdb> {
        FixedPortYdb(DockerImageName image, int port) {
            super(image);
            addFixedExposedPort(port, port);
        }
    }
}
