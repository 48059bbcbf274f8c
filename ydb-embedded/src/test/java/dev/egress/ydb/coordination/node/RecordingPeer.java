package dev.egress.ydb.coordination.node;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import tech.ydb.proto.StatusCodesProtos.StatusIds.StatusCode;
import tech.ydb.proto.coordination.SessionResponse;

/** A stream stand-in that records what the node sends, in order. */
final class RecordingPeer implements SessionPeer {

    private final BlockingQueue<SessionResponse> sent = new LinkedBlockingQueue<>();
    volatile boolean finished;

    @Override
    public void send(SessionResponse response) {
        sent.add(response);
    }

    @Override
    public void onAttached(long timeoutMillis) {}

    @Override
    public void fail(StatusCode status, String message) {
        sent.add(Responses.failure(status, message));
        finished = true;
    }

    @Override
    public void finish() {
        finished = true;
    }

    SessionResponse next() {
        try {
            SessionResponse response = sent.poll(30, TimeUnit.SECONDS);
            if (response == null) {
                throw new AssertionError("nothing sent within 30 s");
            }
            return response;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    boolean isQuiet() {
        return sent.isEmpty();
    }
}
