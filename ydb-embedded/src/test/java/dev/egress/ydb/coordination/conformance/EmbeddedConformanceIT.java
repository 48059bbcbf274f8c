package dev.egress.ydb.coordination.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.ydb.coordination.EmbeddedCoordinationNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;

/**
 * The conformance suites against the in-process embedded node; after every test the node's bookkeeping must be
 * sound (counts equal the sum of owners, no dangling sessions, owners, waiters or watches).
 */
class EmbeddedConformanceIT {

    private static EmbeddedCoordinationNode server;

    @BeforeAll
    static void startServer() {
        server = EmbeddedCoordinationNode.start(0);
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    private static String connectionStringOfServer() {
        return server.connectionString();
    }

    private static void assertConsistent() {
        assertThat(server.stateReport().violations()).isEmpty();
    }

    @Nested
    class Sessions extends SessionConformanceSuite {
        @Override
        protected String connectionString() {
            return connectionStringOfServer();
        }

        @Override
        protected void verifyServer() {
            assertConsistent();
        }
    }

    @Nested
    class Semaphores extends SemaphoreConformanceSuite {
        @Override
        protected String connectionString() {
            return connectionStringOfServer();
        }

        @Override
        protected void verifyServer() {
            assertConsistent();
        }
    }

    @Nested
    class Acquire extends AcquireConformanceSuite {
        @Override
        protected String connectionString() {
            return connectionStringOfServer();
        }

        @Override
        protected void verifyServer() {
            assertConsistent();
        }
    }
}
