package dev.egress.ydb.coordination;

import dev.egress.ydb.coordination.node.NodeStateReport;
import java.util.ArrayList;
import java.util.List;

/**
 * The embedded server's bookkeeping at one moment, for robustness tests: per-node reports plus the streams the
 * gRPC service still tracks.
 *
 * @param nodes       one report per coordination node
 * @param openStreams session streams not yet finished
 */
public record StateReport(List<NodeStateReport> nodes, int openStreams) {

    /** Copies the node list. */
    public StateReport {
        nodes = List.copyOf(nodes);
    }

    /** Every broken invariant of every node, prefixed by the node path. */
    public List<String> violations() {
        List<String> all = new ArrayList<>();
        for (NodeStateReport node : nodes) {
            node.violations().forEach(v -> all.add(node.path() + ": " + v));
        }
        return all;
    }

    /** Sessions over all nodes, attached or detached. */
    public int sessions() {
        return nodes.stream().mapToInt(NodeStateReport::sessions).sum();
    }

    /** Owner entries over all nodes. */
    public long owners() {
        return nodes.stream().mapToLong(NodeStateReport::owners).sum();
    }

    /** Waiter entries over all nodes. */
    public long waiters() {
        return nodes.stream().mapToLong(NodeStateReport::waiters).sum();
    }
}
