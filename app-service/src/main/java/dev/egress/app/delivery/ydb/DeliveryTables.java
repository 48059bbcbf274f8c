package dev.egress.app.delivery.ydb;

import dev.egress.app.delivery.DeliveryStore;
import dev.egress.app.delivery.Retention;
import dev.egress.app.routing.ClaimRecords;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import tech.ydb.auth.AuthProvider;
import tech.ydb.core.grpc.GrpcTransport;
import tech.ydb.core.grpc.GrpcTransportBuilder;
import tech.ydb.query.QueryClient;

/**
 * A connection to the delivery tables: the SDK transport, the query client, the threads transactions run on, and
 * the store over them, closed together; routing's claims table shares it ({@link #claims()}). Opening creates the
 * tables when they are missing, so every App may open it at start.
 */
public final class DeliveryTables implements AutoCloseable {

    private final GrpcTransport transport;
    private final QueryClient client;
    private final ExecutorService executor;
    private final YdbDeliveryStore store;
    private final YdbClaimRecords claims;

    private DeliveryTables(GrpcTransport transport, String tablePrefix, Retention retention, int sessions) {
        this.transport = transport;
        this.client =
                QueryClient.newClient(transport).sessionPoolMaxSize(sessions).build();
        AtomicInteger n = new AtomicInteger();
        // One thread per session at most: a transaction body waits for its statements on its thread.
        this.executor = Executors.newFixedThreadPool(sessions, r -> {
            Thread thread = new Thread(r, "delivery-store-" + n.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        Transactions transactions = new Transactions(client, executor);
        DeliverySchema schema = DeliverySchema.withPrefix(tablePrefix);
        this.store = new YdbDeliveryStore(transactions, schema, retention);
        this.claims = new YdbClaimRecords(transactions, schema);
    }

    /**
     * Connects and creates the tables when they are missing.
     *
     * @param connectionString the database, e.g. {@code grpc://127.0.0.1:2136/local}
     * @param tablePrefix      prepended to the table names ({@code ""} for none)
     * @param retention        how long finished deliveries are kept
     * @param sessions         the most transactions at once
     * @return the open connection
     */
    public static DeliveryTables open(String connectionString, String tablePrefix, Retention retention, int sessions) {
        return open(connectionString, tablePrefix, retention, sessions, null);
    }

    /**
     * Connects with an access token and creates the tables when they are missing.
     *
     * @param connectionString the database, e.g. {@code grpc://127.0.0.1:2136/local}
     * @param tablePrefix      prepended to the table names ({@code ""} for none)
     * @param retention        how long finished deliveries are kept
     * @param sessions         the most transactions at once
     * @param token            the access token, read for every call (a rotated token file is followed), or null
     *                         for anonymous access
     * @return the open connection
     */
    public static DeliveryTables open(
            String connectionString,
            String tablePrefix,
            Retention retention,
            int sessions,
            @Nullable Supplier<String> token) {
        if (sessions < 1) {
            throw new IllegalArgumentException("sessions: %s (expected: > 0)".formatted(sessions));
        }
        GrpcTransportBuilder builder = GrpcTransport.forConnectionString(connectionString);
        if (token != null) {
            AuthProvider credentials = () -> token::get;
            builder.withAuthProvider(credentials);
        }
        GrpcTransport transport = builder.build();
        DeliveryTables tables = null;
        try {
            tables = new DeliveryTables(transport, tablePrefix, retention, sessions);
            tables.store.createTables();
            return tables;
        } catch (RuntimeException e) {
            if (tables != null) {
                tables.close();
            } else {
                transport.close();
            }
            throw e;
        }
    }

    /**
     * The store.
     *
     * @return the store over these tables
     */
    public DeliveryStore store() {
        return store;
    }

    /**
     * The claims table: the standing claims of IPs, stored for every App.
     *
     * @return the claims table over this connection
     */
    public ClaimRecords claims() {
        return claims;
    }

    /** Drops every table: for tests that leave a shared database as they found it. */
    void dropTables() {
        store.dropTables();
    }

    @Override
    public void close() {
        client.close();
        executor.shutdownNow();
        transport.close();
    }
}
