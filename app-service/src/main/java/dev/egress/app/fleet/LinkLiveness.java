package dev.egress.app.fleet;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.http2.DefaultHttp2PingFrame;
import io.netty.handler.codec.http2.Http2FrameCodec;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HTTP/2 PING liveness of one connection to a Border. When nothing has been read from it for
 * {@code pingInterval}, a PING goes out; when nothing has been read {@code pingTimeout} after that, the
 * connection is silent: the Border's {@link LinkWatch} sends no new call to it, and the connection is closed,
 * abortively, as soon as it carries no call. A partition is silent (no reset, no ICMP), so without this a
 * dead connection stays in the pool and every new stream goes onto it until each one's attempt timeout.
 *
 * <p>Calls already in flight on a silent connection are left to run: a Border that is only slow (a long GC
 * pause, a starved host) still answers them, and a read ends the silence; on a dead link they end by their
 * attempt timeout, and the deadline they carried keeps the Border from sending them if their bytes arrive
 * after that. Closing at once would turn every such call into a failure that may have reached the target.
 *
 * <p>Why not Reactor Netty's own {@code pingAckTimeout}: it probes only a connection idle in both
 * directions, and a connection that App keeps writing new streams to is never idle, so under load it never
 * probes. Here any read proves the peer alive, whatever the frame, and only reads count.
 *
 * <p>The close is abortive ({@code SO_LINGER} 0, a reset) so that the kernel drops what it has not yet
 * delivered instead of retransmitting it to the Border once the partition heals. The handler sits first in
 * the pipeline, below TLS, so it sees every byte read; every method runs on the channel's event loop.
 */
final class LinkLiveness extends ChannelDuplexHandler {

    private static final Logger log = LoggerFactory.getLogger(LinkLiveness.class);
    /** A second look this much later, after the event loop has read what may be waiting (its own stall). */
    private static final long CONFIRM_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final long intervalNanos;
    private final long timeoutNanos;
    private final LinkWatch watch;
    private final String border;
    private long lastReadNanos;
    private long pingSentNanos;
    private boolean pingOutstanding;
    private boolean confirming;
    private boolean silent;
    private ScheduledFuture<?> check;

    /**
     * Creates the handler of one connection.
     *
     * @param intervalNanos read silence after which a PING is sent
     * @param timeoutNanos  read silence after a PING after which the connection is silent
     * @param watch         the Border's link state
     * @param border        the Border, for logs
     */
    LinkLiveness(long intervalNanos, long timeoutNanos, LinkWatch watch, String border) {
        this.intervalNanos = intervalNanos;
        this.timeoutNanos = timeoutNanos;
        this.watch = watch;
        this.border = border;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        lastReadNanos = System.nanoTime();
        schedule(ctx, intervalNanos);
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        lastReadNanos = System.nanoTime();
        if (pingOutstanding || silent) {
            if (silent) {
                log.info(
                        "The connection to {} ({}) answers again",
                        border,
                        ctx.channel().remoteAddress());
            }
            pingOutstanding = false;
            confirming = false;
            silent = false;
            watch.settle(ctx.channel());
        }
        super.channelRead(ctx, msg);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        stop(ctx);
        super.channelInactive(ctx);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        stop(ctx);
    }

    private void schedule(ChannelHandlerContext ctx, long delayNanos) {
        check = ctx.executor().schedule(() -> check(ctx), delayNanos, TimeUnit.NANOSECONDS);
    }

    private void check(ChannelHandlerContext ctx) {
        if (!ctx.channel().isActive()) {
            return;
        }
        if (silent) {
            closeWhenIdle(ctx);
        } else if (pingOutstanding) {
            awaitAnswer(ctx);
        } else {
            probeIfQuiet(ctx);
        }
    }

    private void probeIfQuiet(ChannelHandlerContext ctx) {
        long quietFor = System.nanoTime() - lastReadNanos;
        if (quietFor < intervalNanos) {
            schedule(ctx, intervalNanos - quietFor);
            return;
        }
        if (ctx.pipeline().get(Http2FrameCodec.class) == null) {
            // Not HTTP/2 (yet): a TLS handshake in progress, or HTTP/1.1. Nothing to probe with.
            schedule(ctx, intervalNanos);
            return;
        }
        pingOutstanding = true;
        pingSentNanos = System.nanoTime();
        watch.doubt(ctx.channel());
        // Written from the tail so that the HTTP/2 codec (above this handler) encodes it.
        ctx.channel()
                .writeAndFlush(
                        new DefaultHttp2PingFrame(ThreadLocalRandom.current().nextLong()));
        schedule(ctx, timeoutNanos);
    }

    private void awaitAnswer(ChannelHandlerContext ctx) {
        long waited = System.nanoTime() - pingSentNanos;
        if (waited < timeoutNanos) {
            schedule(ctx, timeoutNanos - waited);
            return;
        }
        if (!confirming) {
            // This task may run late after a stall of App's own event loop, ahead of an answer already
            // received: look again once the loop has had a turn to read it.
            confirming = true;
            schedule(ctx, CONFIRM_NANOS);
            return;
        }
        silent = true;
        pingOutstanding = false;
        watch.silent(ctx.channel());
        log.warn(
                "The connection to {} ({}) is silent: no answer to a PING within {} ms; new calls go elsewhere,"
                        + " and it closes once its calls in flight end",
                border,
                ctx.channel().remoteAddress(),
                TimeUnit.NANOSECONDS.toMillis(timeoutNanos));
        closeWhenIdle(ctx);
    }

    private void closeWhenIdle(ChannelHandlerContext ctx) {
        Http2FrameCodec codec = ctx.pipeline().get(Http2FrameCodec.class);
        if (codec != null && codec.connection().numActiveStreams() > 0) {
            schedule(ctx, intervalNanos);
            return;
        }
        stop(ctx);
        ctx.channel().config().setOption(ChannelOption.SO_LINGER, 0);
        // From the first handler's context: straight to the socket, past TLS's close_notify.
        ctx.close();
    }

    private void stop(ChannelHandlerContext ctx) {
        if (check != null) {
            check.cancel(false);
            check = null;
        }
        if (pingOutstanding || silent) {
            pingOutstanding = false;
            silent = false;
            watch.settle(ctx.channel());
        }
    }
}
