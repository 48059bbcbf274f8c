package dev.egress.border.egress;

import java.io.ByteArrayOutputStream;

/**
 * Collects a response body up to a cap and counts (but drops) the rest, so that the connection can
 * still be read to the end and go back to the pool. Not thread-safe: one per response, fed in order.
 */
final class CappedBody {

    private final int cap;
    private final ByteArrayOutputStream kept;
    private boolean truncated;

    CappedBody(int cap) {
        this.cap = cap;
        this.kept = new ByteArrayOutputStream(Math.min(cap, 8192));
    }

    CappedBody append(byte[] chunk) {
        int room = cap - kept.size();
        if (chunk.length <= room) {
            kept.write(chunk, 0, chunk.length);
        } else {
            kept.write(chunk, 0, Math.max(room, 0));
            truncated = true;
        }
        return this;
    }

    boolean truncated() {
        return truncated;
    }

    /** The kept bytes, as the target sent them. */
    byte[] bytes() {
        return kept.toByteArray();
    }
}
