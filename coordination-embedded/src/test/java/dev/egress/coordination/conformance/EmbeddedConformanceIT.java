package dev.egress.coordination.conformance;

import dev.egress.coordination.EmbeddedCoordinationNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

import static org.assertj.core.api.Assertions.assertThat;

/** The conformance suite against the in-process embedded node; after every test its bookkeeping must be sound. */
class EmbeddedConformanceIT extends CoordinationConformanceSuite {

    private static EmbeddedCoordinationNode server;

    @BeforeAll
    static void startServer() {
        server = EmbeddedCoordinationNode.start(0);
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Override
    protected String connectionString() {
        return server.connectionString();
    }

    @AfterEach
    void stateStaysConsistent() {
        assertThat(server.stateReport().violations()).isEmpty();
    }
}
