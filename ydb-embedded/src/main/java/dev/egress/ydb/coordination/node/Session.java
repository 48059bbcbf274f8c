package dev.egress.ydb.coordination.node;

import com.google.protobuf.ByteString;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;

/** One coordination session: attached to at most one stream, surviving detachment for its timeout. */
final class Session {

    final long id;
    long timeoutMillis;
    String description;
    final ByteString protectionKey;
    long lastSeqNo;
    /** The stream the session is attached to, or null while detached. */
    SessionPeer peer;
    /** Fires the expiry of a detached session. */
    ScheduledFuture<?> expiry;

    final Map<Semaphore, Owner> owned = new LinkedHashMap<>();
    final Map<Semaphore, Waiter> waiting = new LinkedHashMap<>();
    /** The req_id of the pending acquire to answer per semaphore ("wait cookie"); cleared on re-attach. */
    final Map<Semaphore, Long> waitCookies = new HashMap<>();
    /** The req_id of the watching describe per semaphore ("watch cookie"); cleared on (re/de)tach. */
    final Map<Semaphore, Long> watchCookies = new HashMap<>();

    Session(long id, long timeoutMillis, String description, ByteString protectionKey, long seqNo) {
        this.id = id;
        this.timeoutMillis = timeoutMillis;
        this.description = description;
        this.protectionKey = protectionKey;
        this.lastSeqNo = seqNo;
    }

    /** Drops all watches of this session, without notifying anybody (as YDB does on attach and detach). */
    void clearWatches() {
        for (Semaphore semaphore : watchCookies.keySet()) {
            semaphore.dataWatchers.remove(this);
            semaphore.ownersWatchers.remove(this);
        }
        watchCookies.clear();
    }

    void cancelExpiry() {
        if (expiry != null) {
            expiry.cancel(false);
            expiry = null;
        }
    }
}
