package dev.egress.app.delivery.ydb;

import dev.egress.ydb.coordination.EmbeddedCoordinationNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The delivery store suite against the embedded node (Query service, in memory) on port 0. */
class EmbeddedDeliveryStoreIT extends DeliveryStoreSuite {

    private static EmbeddedCoordinationNode node;

    @BeforeAll
    static void start() throws Exception {
        node = EmbeddedCoordinationNode.start(0);
    }

    @AfterAll
    static void stop() throws Exception {
        node.close();
    }

    @Override
    protected String connectionString() {
        return node.connectionString();
    }

    @Override
    protected boolean fastTtl() {
        return true;
    }
}
