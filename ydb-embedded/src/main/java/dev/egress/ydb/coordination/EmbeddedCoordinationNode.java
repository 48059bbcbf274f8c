package dev.egress.ydb.coordination;

import dev.egress.ydb.coordination.node.CoordinationNode;
import dev.egress.ydb.coordination.node.CoordinationNodes;
import dev.egress.ydb.coordination.node.NodeStateReport;
import dev.egress.ydb.coordination.server.CoordinationGrpcService;
import dev.egress.ydb.coordination.server.DiscoveryGrpcService;
import dev.egress.ydb.coordination.server.TokenCheck;
import dev.egress.ydb.query.TableOptions;
import dev.egress.ydb.query.Tables;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded YDB node: a YDB-protocol-compatible server (Discovery, Coordination and the Query service over
 * tables, on one port and one database path) that the official YDB SDK talks to as to real YDB. Coordination state
 * is in memory; tables are in memory or, with {@link TableOptions#dataDir()}, in a data directory. Start it on a port (0 for an ephemeral one), hand {@link #connectionString()}
 * to the SDK, and {@link #close()} it to simulate a YDB restart: all state is lost, and the same port can be
 * bound again right away.
 */
public final class EmbeddedCoordinationNode implements AutoCloseable {

    /** The database served when none is given, as in local-ydb. */
    public static final String DEFAULT_DATABASE = "/local";
    /** The loopback address served when no host is given. */
    public static final String DEFAULT_HOST = "127.0.0.1";

    private static final Logger log = LoggerFactory.getLogger(EmbeddedCoordinationNode.class);
    // The SDK pings every 10 s; grpc-java's default (5 min) would answer GOAWAY too_many_pings after ~30 s.
    private static final long PERMIT_KEEPALIVE_SECONDS = 5;
    private static final int MAX_INBOUND_MESSAGE_BYTES = 64 * 1024 * 1024;

    private final String host;
    private final String database;
    private final boolean tls;
    private final int port;
    private final Server server;
    private final CoordinationNodes nodes;
    private final CoordinationGrpcService coordination;
    private final ScheduledExecutorService pinger;
    private final Tables tables;
    private volatile boolean closed;

    private EmbeddedCoordinationNode(
            String host,
            String database,
            boolean tls,
            Server server,
            CoordinationNodes nodes,
            CoordinationGrpcService coordination,
            ScheduledExecutorService pinger,
            Tables tables) {
        this.host = host;
        this.database = database;
        this.tls = tls;
        this.port = server.getPort(); // a terminated gRPC server no longer answers getPort()
        this.server = server;
        this.nodes = nodes;
        this.coordination = coordination;
        this.pinger = pinger;
        this.tables = tables;
    }

    /**
     * Starts a node serving {@value #DEFAULT_DATABASE} on {@value #DEFAULT_HOST}.
     *
     * @param port the port, 0 for an ephemeral one
     */
    public static EmbeddedCoordinationNode start(int port) {
        return start(DEFAULT_HOST, port, DEFAULT_DATABASE);
    }

    /**
     * Starts a node on {@value #DEFAULT_HOST}.
     *
     * @param port     the port, 0 for an ephemeral one
     * @param database the database path, e.g. {@code /local}
     */
    public static EmbeddedCoordinationNode start(int port, String database) {
        return start(DEFAULT_HOST, port, database);
    }

    /**
     * Starts a node, bound to and advertising {@code host}.
     *
     * @param host     the address to bind and to advertise through discovery
     * @param port     the port, 0 for an ephemeral one
     * @param database the database path, e.g. {@code /local}
     * @throws UncheckedIOException when the port cannot be bound
     */
    public static EmbeddedCoordinationNode start(String host, int port, String database) {
        return start(host, port, database, NodeAccess.ANONYMOUS);
    }

    /**
     * Starts a node with access control: required tokens and/or TLS.
     *
     * @param host     the address to bind and to advertise through discovery
     * @param port     the port, 0 for an ephemeral one
     * @param database the database path, e.g. {@code /local}
     * @param access   who may call and whether over TLS
     * @throws UncheckedIOException when the port cannot be bound or the TLS files cannot be read
     */
    public static EmbeddedCoordinationNode start(String host, int port, String database, NodeAccess access) {
        return start(host, port, database, access, TableOptions.IN_MEMORY);
    }

    /**
     * Starts a node with access control and table options (a data directory, TTL period, limits).
     *
     * @throws UncheckedIOException when the port cannot be bound, the TLS files or the data directory cannot be read
     */
    public static EmbeddedCoordinationNode start(
            String host, int port, String database, NodeAccess access, TableOptions tableOptions) {
        String db = normalizeDatabase(database);
        Tables tables = Tables.open(db, tableOptions);
        CoordinationNodes nodes = new CoordinationNodes(db);
        ScheduledThreadPoolExecutor pinger = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "coordination-pinger");
            thread.setDaemon(true);
            return thread;
        });
        pinger.setRemoveOnCancelPolicy(true); // ping tasks of finished streams leave the queue at once
        CoordinationGrpcService coordination = new CoordinationGrpcService(nodes, pinger);
        Server[] bound = new Server[1];
        DiscoveryGrpcService discovery = new DiscoveryGrpcService(host, () -> bound[0].getPort());
        NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress(host, port))
                .addService(discovery)
                .addService(coordination)
                .addService(tables.service())
                .permitKeepAliveTime(PERMIT_KEEPALIVE_SECONDS, TimeUnit.SECONDS)
                .permitKeepAliveWithoutCalls(true)
                .maxInboundMessageSize(MAX_INBOUND_MESSAGE_BYTES);
        if (!access.tokens().isEmpty()) {
            builder.intercept(new TokenCheck(access.tokens()));
        }
        if (access.tls()) {
            builder.useTransportSecurity(
                    access.certificateChain().toFile(), access.privateKey().toFile());
        }
        Server server = builder.build();
        bound[0] = server;
        try {
            server.start();
        } catch (IOException e) {
            pinger.shutdownNow();
            tables.close();
            throw new UncheckedIOException("cannot bind the coordination node to " + host + ":" + port, e);
        }
        EmbeddedCoordinationNode node =
                new EmbeddedCoordinationNode(host, db, access.tls(), server, nodes, coordination, pinger, tables);
        log.info("Embedded coordination node ready at {} ({})", node.connectionString(), access);
        return node;
    }

    /**
     * The SDK connection string, e.g. {@code grpc://127.0.0.1:41234/local} ({@code grpcs://} with TLS);
     * an IPv6 host is bracketed ({@code grpc://[fd00::2]:2136/local}), or the port would read as part of it.
     */
    public String connectionString() {
        String authority = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        return (tls ? "grpcs://" : "grpc://") + authority + ":" + port() + database;
    }

    /** The port actually bound. */
    public int port() {
        return port;
    }

    /** The bound and advertised address. */
    public String host() {
        return host;
    }

    /** The served database path. */
    public String database() {
        return database;
    }

    /**
     * Checks every node's bookkeeping (runs on each node's thread; for tests, not for the hot path).
     *
     * @return the report; {@code report.violations()} is empty when consistent
     */
    public StateReport stateReport() {
        List<NodeStateReport> reports = nodes.all().stream()
                .map(CoordinationNode::report)
                .flatMap(Optional::stream) // a node dropped meanwhile has nothing left to check
                .toList();
        return new StateReport(reports, coordination.openStreams());
    }

    /** The table side (its database and metrics). */
    public Tables tables() {
        return tables;
    }

    /** Stops serving: ends all streams, drops all state, frees the port. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        // Like a YDB process going away: calls are cut at the transport (no in-band failure), so SDK sessions
        // take their usual reconnect path and find their sessions gone (SESSION_EXPIRED) once a node is back.
        server.shutdownNow();
        try {
            if (!server.awaitTermination(10, TimeUnit.SECONDS)) {
                log.warn("Coordination server did not terminate within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        nodes.close();
        pinger.shutdownNow();
        tables.close();
        log.info("Embedded coordination node at {} stopped", connectionString());
    }

    private static String normalizeDatabase(String database) {
        String db = database.startsWith("/") ? database : "/" + database;
        while (db.length() > 1 && db.endsWith("/")) {
            db = db.substring(0, db.length() - 1);
        }
        if (db.length() < 2) {
            throw new IllegalArgumentException("database: " + database + " (expected: an absolute path like /local)");
        }
        return db;
    }
}
