package dev.egress.ydb.query.contract;

import dev.egress.ydb.coordination.EmbeddedCoordinationNode;
import dev.egress.ydb.coordination.NodeAccess;
import dev.egress.ydb.query.TableOptions;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;

/** The Query-service contract suites against the in-process embedded node (TTL swept every 200 ms). */
class EmbeddedQueryContractIT {

    private static EmbeddedCoordinationNode node;

    @BeforeAll
    static void start() {
        node = EmbeddedCoordinationNode.start(
                EmbeddedCoordinationNode.DEFAULT_HOST,
                0,
                EmbeddedCoordinationNode.DEFAULT_DATABASE,
                NodeAccess.ANONYMOUS,
                TableOptions.IN_MEMORY.withTtlPeriod(Duration.ofMillis(200)));
    }

    @AfterAll
    static void stop() {
        node.close();
    }

    @Nested
    class Statements extends StatementContractSuite {
        @Override
        protected String connectionString() {
            return node.connectionString();
        }

        @Override
        protected boolean fastTtl() {
            return true;
        }

        @Override
        protected boolean embedded() {
            return true;
        }
    }

    @Nested
    class Transactions extends TransactionContractSuite {
        @Override
        protected String connectionString() {
            return node.connectionString();
        }
    }
}
