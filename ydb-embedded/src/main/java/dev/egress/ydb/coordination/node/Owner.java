package dev.egress.ydb.coordination.node;

import com.google.protobuf.ByteString;

/** A session holding tokens of a semaphore. Mutable, owned by the node thread. */
final class Owner {

    final long orderId;
    final Session session;
    long count;
    ByteString data;

    Owner(long orderId, Session session, long count, ByteString data) {
        this.orderId = orderId;
        this.session = session;
        this.count = count;
        this.data = data;
    }
}
