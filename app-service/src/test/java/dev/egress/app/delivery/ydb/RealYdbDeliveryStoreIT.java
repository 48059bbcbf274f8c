package dev.egress.app.delivery.ydb;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.BeforeAll;

/**
 * The same delivery store suite against real YDB: {@code YDB_ENDPOINT} (e.g. {@code grpc://host:2136}) with
 * {@code YDB_DATABASE} (default {@code /local}). Skipped, with that reason, when it is not set. The TTL test is
 * embedded-only (YDB sweeps after 15 min or more).
 */
class RealYdbDeliveryStoreIT extends DeliveryStoreSuite {

    private static String connectionString;

    @BeforeAll
    static void connect() {
        String endpoint = System.getenv("YDB_ENDPOINT");
        assumeTrue(
                endpoint != null && !endpoint.isBlank(),
                "no YDB_ENDPOINT: the delivery store runs on the embedded node only");
        String db = System.getenv().getOrDefault("YDB_DATABASE", "/local");
        connectionString = endpoint + (db.startsWith("/") ? db : "/" + db);
    }

    @Override
    protected String connectionString() {
        return connectionString;
    }
}
