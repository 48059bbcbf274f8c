package dev.egress.ydb.coordination.node;

import static dev.egress.ydb.coordination.node.Limits.INFINITE;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Cross-checks a node's bookkeeping from every side (semaphores against sessions and back), so that robustness
 * tests can prove nothing leaked or drifted. Runs on the node thread, never on the hot path.
 */
final class ConsistencyCheck {

    private ConsistencyCheck() {}

    static NodeStateReport run(
            String path,
            Map<Long, Session> sessions,
            Map<SessionPeer, Session> attached,
            Map<String, Semaphore> semaphores,
            int queuedTasks) {
        List<String> violations = new ArrayList<>();
        long owners = 0;
        long waiters = 0;
        long watches = 0;
        for (Map.Entry<String, Semaphore> entry : semaphores.entrySet()) {
            Semaphore s = entry.getValue();
            checkSemaphore(entry.getKey(), s, sessions, violations);
            owners += s.owners.size();
            waiters += s.waiters.size();
        }
        for (Session session : sessions.values()) {
            checkSession(session, semaphores, attached, violations);
            watches += session.watchCookies.size();
        }
        for (Map.Entry<SessionPeer, Session> entry : attached.entrySet()) {
            if (entry.getValue().peer != entry.getKey() || sessions.get(entry.getValue().id) != entry.getValue()) {
                violations.add("stream attached to a stale session " + entry.getValue().id);
            }
        }
        return new NodeStateReport(
                path,
                sessions.size(),
                attached.size(),
                semaphores.size(),
                owners,
                waiters,
                watches,
                queuedTasks,
                violations);
    }

    /** The invariants of one semaphore: its owners, count, waiters and watches agree with the sessions. */
    private static void checkSemaphore(String name, Semaphore s, Map<Long, Session> sessions, List<String> violations) {
        if (!name.equals(s.name)) {
            violations.add("semaphore " + s.name + " registered as " + name);
        }
        long sum = 0;
        for (Map.Entry<Session, Owner> o : s.owners.entrySet()) {
            sum += o.getValue().count;
            if (sessions.get(o.getKey().id) != o.getKey()) {
                violations.add("semaphore " + name + " owned by unknown session " + o.getKey().id);
            }
            if (o.getKey().owned.get(s) != o.getValue()) {
                violations.add("session " + o.getKey().id + " does not know it owns " + name);
            }
        }
        if (sum != s.count) {
            violations.add("semaphore " + name + " count " + Long.toUnsignedString(s.count) + " != sum of owners "
                    + Long.toUnsignedString(sum));
        }
        if (Long.compareUnsigned(s.count, s.limit) > 0) {
            violations.add("semaphore " + name + " count exceeds its limit");
        }
        for (Waiter w : s.waiters.values()) {
            if (sessions.get(w.session.id) != w.session || w.session.waiting.get(s) != w) {
                violations.add("semaphore " + name + " has a dangling waiter of session " + w.session.id);
            }
        }
        if (!s.waiters.isEmpty() && s.canAcquire(s.waiters.firstEntry().getValue().count)) {
            violations.add("semaphore " + name + " has a grantable head waiter");
        }
        if (s.ephemeral && s.isEmpty()) {
            violations.add("ephemeral semaphore " + name + " is empty but still exists");
        }
        for (Session w : s.dataWatchers) {
            if (w.peer == null || !w.watchCookies.containsKey(s)) {
                violations.add("semaphore " + name + " has a stale data watch of session " + w.id);
            }
        }
        for (Session w : s.ownersWatchers) {
            if (w.peer == null || !w.watchCookies.containsKey(s)) {
                violations.add("semaphore " + name + " has a stale owners watch of session " + w.id);
            }
        }
    }

    /** The invariants of one session: what it owns, waits on and is attached to exists and lists it. */
    private static void checkSession(
            Session session,
            Map<String, Semaphore> semaphores,
            Map<SessionPeer, Session> attached,
            List<String> violations) {
        for (Semaphore s : session.owned.keySet()) {
            if (semaphores.get(s.name) != s || s.owners.get(session) == null) {
                violations.add("session " + session.id + " owns a semaphore that does not list it: " + s.name);
            }
        }
        for (Semaphore s : session.waiting.keySet()) {
            if (semaphores.get(s.name) != s) {
                violations.add("session " + session.id + " waits on a deleted semaphore: " + s.name);
            }
        }
        if (session.peer == null && session.expiry == null && session.timeoutMillis != INFINITE) {
            violations.add("detached session " + session.id + " has no expiry");
        }
        if (session.peer != null && attached.get(session.peer) != session) {
            violations.add("session " + session.id + " has a peer the node does not know");
        }
    }
}
