package dev.egress.ydb.coordination.node;

import com.google.protobuf.ByteString;
import java.util.concurrent.ScheduledFuture;

/** A session queued for tokens of a semaphore. Mutable, owned by the node thread. */
final class Waiter {

    final long orderId;
    final Session session;
    long count;
    ByteString data;
    long timeoutMillis;
    /** The armed timeout, or null for an infinite one. */
    ScheduledFuture<?> timer;

    Waiter(long orderId, Session session, long count, ByteString data, long timeoutMillis) {
        this.orderId = orderId;
        this.session = session;
        this.count = count;
        this.data = data;
        this.timeoutMillis = timeoutMillis;
    }

    void cancelTimer() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }
}
