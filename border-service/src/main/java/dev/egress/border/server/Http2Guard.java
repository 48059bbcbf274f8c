package dev.egress.border.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Two guards for an HTTP/2 connection on the Border's port, read off the decrypted bytes in front of every
 * codec (so the same handler serves h2 chosen by ALPN and h2c by prior knowledge, whichever codec Reactor
 * Netty installs later):
 *
 * <ul>
 *   <li><b>Header deadline.</b> A header block (a HEADERS frame and its CONTINUATIONs, up to END_HEADERS), or
 *       a frame's 9-byte header, must arrive within the deadline once it has started. Netty decodes a header
 *       block only when it is complete and allows no other frame in between, so a client trickling a
 *       CONTINUATION a byte at a time would hold the connection and its buffers forever, its bytes resetting
 *       any idle timer: the HTTP/2 form of what {@code RequestHeaderDeadline} stops for HTTP/1.1. The
 *       connection is closed: in the middle of a header block nothing else, a stream reset included, can be
 *       processed on it (RFC 9113 §6.10). While the connection is unwritable (our answers backed up) the
 *       deadline is extended, at most {@value #MAX_EXTENSIONS} times: the client controls writability by not
 *       reading.</li>
 *   <li><b>Rapid reset.</b> A connection without a verified App certificate may reset at most Netty's default
 *       200 streams per 30 s (CVE-2023-44487), and make the Border reset at most as many (CVE-2025-55163,
 *       counted by {@link SentResets}); the codec's own limits are raised for App, which resets a stream for
 *       every delivery it gives up and whose tunnels the Border resets when their target closes first. Past a
 *       limit the connection is closed. (In insecure-local mode no client can be verified, and every client
 *       counts as App.)</li>
 * </ul>
 *
 * <p>A connection whose first bytes are not the HTTP/2 preface (HTTP/1.1, which {@code RequestHeaderDeadline}
 * guards) is passed through untouched from then on. Everything runs on the connection's event loop.
 */
final class Http2Guard extends ChannelDuplexHandler {

    /** Pipeline name. */
    static final String NAME = "egress.http2Guard";

    /** What the guard reports when it closes a connection. */
    interface Events {
        /** A header block or frame header did not complete within the deadline. */
        void headerTimeout();

        /** More stream resets than the connection's limit within its window. */
        void rapidReset();
    }

    /**
     * The limits.
     *
     * @param headerTimeout   from the first byte of a header block or frame header to its last
     * @param resetsPerWindow stream resets a connection without a verified App certificate may send per window
     * @param resetWindow     the window
     */
    record Limits(Duration headerTimeout, int resetsPerWindow, Duration resetWindow) {}

    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final int FRAME_HEADER_BYTES = 9;
    private static final int TYPE_HEADERS = 0x1;
    private static final int TYPE_RST_STREAM = 0x3;
    private static final int TYPE_CONTINUATION = 0x9;
    private static final int FLAG_END_HEADERS = 0x4;
    /** How many times an unwritable connection may extend one header block's deadline, by a deadline each. */
    static final int MAX_EXTENSIONS = 2;

    private enum Mode {
        /** Matching the preface. */
        PREFACE,
        /** HTTP/2 frames. */
        FRAMES,
        /** Not HTTP/2: passed through. */
        OTHER
    }

    private final Limits limits;
    private final Predicate<Channel> verifiedApp;
    private final Events events;

    private Mode mode = Mode.PREFACE;
    private int prefaceMatched;
    private final byte[] frameHeader = new byte[FRAME_HEADER_BYTES];
    private int frameHeaderFill;
    private int payloadRemaining;
    private int frameType;
    private int frameFlags;
    private boolean inHeaderBlock;
    // When the current incomplete header block or frame header was first seen at the end of a read; -1: none.
    private long incompleteSince = -1;
    private ScheduledFuture<?> timer;
    private int extensions;
    private long resetWindowStart;
    private int resets;
    private Boolean verified;
    private boolean closed;
    /** The resets this side writes, counted for a connection without a verified App certificate only. */
    private SentResets sent;

    private boolean sentDecided;

    Http2Guard(Limits limits, Predicate<Channel> verifiedApp, Events events) {
        this.limits = limits;
        this.verifiedApp = verifiedApp;
        this.events = events;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (mode == Mode.OTHER || closed || !(msg instanceof ByteBuf bytes)) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (!scan(ctx.channel(), bytes)) {
            ReferenceCountUtil.release(msg);
            closed = true;
            stopTimer();
            events.rapidReset();
            ctx.close();
            return;
        }
        updateTimer(ctx);
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (mode != Mode.OTHER && !closed && msg instanceof ByteBuf bytes && counted(ctx.channel()) != null) {
            boolean within = sent.scan(bytes);
            ctx.write(msg, promise);
            if (!within) {
                closed = true;
                stopTimer();
                events.rapidReset();
                ctx.close();
            }
            return;
        }
        ctx.write(msg, promise);
    }

    /**
     * The counter of this side's resets, decided at the first write of an HTTP/2 connection (the server's SETTINGS,
     * after the TLS handshake): none for a verified App, whose limit is the codec's raised one.
     */
    private SentResets counted(Channel channel) {
        if (!sentDecided) {
            sentDecided = true;
            if (!verified(channel)) {
                sent = new SentResets(
                        limits.resetsPerWindow(), limits.resetWindow().toNanos());
            }
        }
        return sent;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        stopTimer();
        ctx.fireChannelInactive();
    }

    /**
     * Follows frame boundaries through one read without consuming it.
     *
     * @return false when the connection passed its reset limit
     */
    private boolean scan(Channel channel, ByteBuf bytes) {
        int i = bytes.readerIndex();
        int end = bytes.writerIndex();
        while (i < end) {
            if (mode == Mode.PREFACE) {
                if (bytes.getByte(i++) != PREFACE[prefaceMatched]) {
                    mode = Mode.OTHER;
                    return true;
                }
                if (++prefaceMatched == PREFACE.length) {
                    mode = Mode.FRAMES;
                }
            } else if (mode == Mode.OTHER) {
                return true;
            } else if (payloadRemaining > 0) {
                int skipped = Math.min(payloadRemaining, end - i);
                i += skipped;
                payloadRemaining -= skipped;
                if (payloadRemaining == 0) {
                    frameDone();
                }
            } else {
                frameHeader[frameHeaderFill++] = bytes.getByte(i++);
                if (frameHeaderFill == FRAME_HEADER_BYTES && !frameStarted(channel)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** A frame header is complete: note the frame, count a reset. */
    private boolean frameStarted(Channel channel) {
        frameHeaderFill = 0;
        payloadRemaining = ((frameHeader[0] & 0xff) << 16) | ((frameHeader[1] & 0xff) << 8) | (frameHeader[2] & 0xff);
        frameType = frameHeader[3] & 0xff;
        frameFlags = frameHeader[4] & 0xff;
        if (frameType == TYPE_HEADERS) {
            inHeaderBlock = true;
        }
        if (frameType == TYPE_RST_STREAM && !allowReset(channel)) {
            return false;
        }
        if (payloadRemaining == 0) {
            frameDone();
        }
        return true;
    }

    /** A frame is complete; END_HEADERS on the last frame of a header block ends the block. */
    private void frameDone() {
        if ((frameType == TYPE_HEADERS || frameType == TYPE_CONTINUATION) && (frameFlags & FLAG_END_HEADERS) != 0) {
            inHeaderBlock = false;
        }
        if (!inHeaderBlock) {
            // The episode (if any) ended here; a later one gets a fresh deadline and its own extensions.
            incompleteSince = -1;
            extensions = 0;
        }
    }

    /** Netty's window semantics: the count restarts when a reset arrives after the window has passed. */
    private boolean allowReset(Channel channel) {
        if (verified(channel)) {
            return true; // the codec's raised limit applies
        }
        long now = System.nanoTime();
        if (resets == 0 || now - resetWindowStart > limits.resetWindow().toNanos()) {
            resetWindowStart = now;
            resets = 0;
        }
        return ++resets <= limits.resetsPerWindow();
    }

    /** Asked once, at the first reset or write: by then the TLS handshake (if any) is complete. */
    private boolean verified(Channel channel) {
        if (verified == null) {
            verified = verifiedApp.test(channel);
        }
        return verified;
    }

    private boolean incomplete() {
        return mode == Mode.FRAMES && (inHeaderBlock || frameHeaderFill > 0);
    }

    private void updateTimer(ChannelHandlerContext ctx) {
        if (!incomplete()) {
            incompleteSince = -1;
            extensions = 0;
            stopTimer();
            return;
        }
        if (incompleteSince < 0) {
            incompleteSince = System.nanoTime();
            stopTimer();
            timer = ctx.executor()
                    .schedule(() -> expire(ctx), limits.headerTimeout().toNanos(), TimeUnit.NANOSECONDS);
        }
    }

    private void expire(ChannelHandlerContext ctx) {
        timer = null;
        if (!ctx.channel().isWritable() && extensions < MAX_EXTENSIONS) {
            // Our answers are backed up, and reading the client's bytes may be paused until they drain: then it
            // may not be only the client keeping the block incomplete, so the deadline is extended. Only a few
            // times: a client that stops reading our answers makes the connection unwritable at will, and it
            // must not hold a half-sent header block (and its buffers) open for as long as it likes.
            extensions++;
            incompleteSince = System.nanoTime();
            timer = ctx.executor()
                    .schedule(() -> expire(ctx), limits.headerTimeout().toNanos(), TimeUnit.NANOSECONDS);
            return;
        }
        if (!closed && incomplete() && ctx.channel().isActive()) {
            closed = true;
            events.headerTimeout();
            ctx.close();
        }
    }

    private void stopTimer() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }
}
