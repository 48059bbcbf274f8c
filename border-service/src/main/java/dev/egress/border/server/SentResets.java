package dev.egress.border.server;

import io.netty.buffer.ByteBuf;

/**
 * Counts the stream resets (RST_STREAM) the Border writes on one HTTP/2 connection, following frame boundaries
 * through what it writes without consuming it, with Netty's window semantics (the count restarts when a reset is
 * written after the window has passed). A client can make a server reset streams without resetting any itself
 * (CVE-2025-55163, "MadeYouReset"); Netty's own guard against that is raised for App ({@link Http2Guard}), whose
 * tunnels end with a reset from the Border whenever the target closes first, so this one keeps Netty's default
 * for connections without a verified App certificate. One instance per connection, on its event loop.
 */
final class SentResets {

    private static final int FRAME_HEADER_BYTES = 9;
    private static final int TYPE_RST_STREAM = 0x3;

    private final int limit;
    private final long windowNanos;
    /** The first four bytes of a frame header: the payload length (3 bytes) and the type. */
    private int headerFill;

    private int length;
    /** Bytes of the current frame (the rest of its header and its payload) still to skip. */
    private int remaining;

    private long windowStart;
    private int count;

    /**
     * A counter with a limit.
     *
     * @param limit       resets the connection may be sent per window
     * @param windowNanos the window
     */
    SentResets(int limit, long windowNanos) {
        this.limit = limit;
        this.windowNanos = windowNanos;
    }

    /**
     * Follows the frames in bytes about to be written.
     *
     * @param bytes the bytes, from a frame boundary on (the server speaks first: its SETTINGS frame)
     * @return false once the connection was sent more resets than the limit within the window
     */
    boolean scan(ByteBuf bytes) {
        int i = bytes.readerIndex();
        int end = bytes.writerIndex();
        boolean within = true;
        while (i < end) {
            if (remaining > 0) {
                int skipped = Math.min(remaining, end - i);
                i += skipped;
                remaining -= skipped;
                continue;
            }
            int b = bytes.getByte(i++) & 0xff;
            if (headerFill < 3) {
                length = (length << 8) | b;
                headerFill++;
                continue;
            }
            remaining = FRAME_HEADER_BYTES - 4 + length;
            headerFill = 0;
            length = 0;
            if (b == TYPE_RST_STREAM && !allow()) {
                within = false;
            }
        }
        return within;
    }

    private boolean allow() {
        long now = System.nanoTime();
        if (count == 0 || now - windowStart > windowNanos) {
            windowStart = now;
            count = 0;
        }
        return ++count <= limit;
    }
}
