package dev.egress.ydb.coordination.node;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tech.ydb.proto.StatusCodesProtos.StatusIds.StatusCode;
import tech.ydb.proto.coordination.Config;

/**
 * The coordination nodes of one database, by absolute path: the "scheme" side (create, alter, drop, describe).
 * Paths outside the database are scheme errors, as in YDB.
 */
public final class CoordinationNodes implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(CoordinationNodes.class);

    private final String database;
    private final ConcurrentMap<String, CoordinationNode> nodes = new ConcurrentHashMap<>();

    /** @param database the database path, e.g. {@code /local} */
    public CoordinationNodes(String database) {
        this.database = database;
    }

    /** The database path. */
    public String database() {
        return database;
    }

    /**
     * Creates a node; an existing node is left unchanged (CreateNode is idempotent in YDB).
     *
     * @throws NodeOperationException SCHEME_ERROR for a bad path
     */
    public CoordinationNode create(String rawPath, Config config) {
        String path = normalize(rawPath);
        NodeConfig initial = NodeConfig.defaults().apply(config);
        CoordinationNode[] created = new CoordinationNode[1];
        CoordinationNode node = nodes.computeIfAbsent(path, p -> created[0] = new CoordinationNode(p, initial));
        if (created[0] != null) {
            log.info("Coordination node {} created", path);
        }
        return node;
    }

    /**
     * Changes the set fields of a node's config.
     *
     * @throws NodeOperationException SCHEME_ERROR for a missing node
     */
    public void alter(String rawPath, Config change) {
        CoordinationNode node = require(rawPath);
        synchronized (node) {
            node.config(node.config().apply(change));
        }
    }

    /**
     * Drops a node; its attached streams get a failure and its sessions are gone.
     *
     * @throws NodeOperationException SCHEME_ERROR for a missing node
     */
    public void drop(String rawPath) {
        String path = normalize(rawPath);
        CoordinationNode node = nodes.remove(path);
        if (node == null) {
            throw new NodeOperationException(StatusCode.SCHEME_ERROR, "Path does not exist: " + path);
        }
        node.close(StatusCode.SCHEME_ERROR, "Coordination node was dropped");
        log.info("Coordination node {} dropped", path);
    }

    /**
     * The node at a path.
     *
     * @throws NodeOperationException SCHEME_ERROR for a missing node or a path outside the database
     */
    public CoordinationNode require(String rawPath) {
        return find(rawPath)
                .orElseThrow(
                        () -> new NodeOperationException(StatusCode.SCHEME_ERROR, "Path does not exist: " + rawPath));
    }

    /** The node at a path, if any (a bad path finds nothing). */
    public Optional<CoordinationNode> find(String rawPath) {
        try {
            return Optional.ofNullable(nodes.get(normalize(rawPath)));
        } catch (NodeOperationException e) {
            return Optional.empty();
        }
    }

    /** All nodes, for reports. */
    public List<CoordinationNode> all() {
        return List.copyOf(nodes.values());
    }

    /** Closes every node (streams are expected to be gone already: the server is stopped first). */
    @Override
    public void close() {
        for (String path : List.copyOf(nodes.keySet())) {
            CoordinationNode node = nodes.remove(path);
            if (node != null) {
                node.close(StatusCode.UNAVAILABLE, "Coordination service is shutting down");
            }
        }
    }

    /** Resolves relative paths against the database, drops a trailing slash, and rejects foreign paths. */
    String normalize(String rawPath) {
        String path = rawPath.startsWith("/") ? rawPath : database + "/" + rawPath;
        while (path.length() > 1 && path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        if (!path.startsWith(database + "/") || path.length() == database.length() + 1 || path.contains("//")) {
            throw new NodeOperationException(
                    StatusCode.SCHEME_ERROR, "Path is not a valid node path in " + database + ": " + rawPath);
        }
        return path;
    }
}
