package dev.egress.app.dispatch;

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
 * HTTP/2 PING liveness of one connection to a Border: when nothing has been read from it for
 * {@code pingInterval}, a PING goes out; when nothing has been read {@code pingTimeout} after that, the
 * connection is closed, abortively. A partition is silent (no reset, no ICMP), so without this a dead
 * connection stays in the pool and every new stream goes onto it until each one's attempt timeout.
 *
 * <p>Why not Reactor Netty's own {@code pingAckTimeout}: it probes only a connection idle in both
 * directions, and a connection that App keeps writing new streams to is never idle, so under load it
 * never probes. Here any read proves the peer alive, whatever the frame, and only reads count.
 *
 * <p>The close is abortive ({@code SO_LINGER} 0, a reset) so that the kernel drops what it has not yet
 * delivered: a graceful close would keep retransmitting the queued requests, and the Border would receive
 * and send them once the partition heals, after App told their callers they failed.
 *
 * <p>Sits first in the pipeline, below TLS, so it sees every byte read; every method runs on the channel's
 * event loop.
 */
final class LinkLiveness extends ChannelDuplexHandler {

    private static final Logger log = LoggerFactory.getLogger(LinkLiveness.class);

    private final long intervalNanos;
    private final long timeoutNanos;
    private final LinkWatch watch;
    private final String border;
    private long lastReadNanos;
    private long pingSentNanos;
    private boolean pingOutstanding;
    private ScheduledFuture<?> check;

    /**
     * Creates the handler of one connection.
     *
     * @param intervalNanos read silence after which a PING is sent
     * @param timeoutNanos  read silence after a PING after which the connection is closed
     * @param watch         the Border's link state, told of PINGs in doubt
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
        if (pingOutstanding) {
            pingOutstanding = false;
            watch.settle(ctx.channel(), false);
        }
        super.channelRead(ctx, msg);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        stop(ctx, false);
        super.channelInactive(ctx);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        stop(ctx, false);
    }

    private void schedule(ChannelHandlerContext ctx, long delayNanos) {
        check = ctx.executor().schedule(() -> check(ctx), delayNanos, TimeUnit.NANOSECONDS);
    }

    private void check(ChannelHandlerContext ctx) {
        if (!ctx.channel().isActive()) {
            return;
        }
        long now = System.nanoTime();
        if (pingOutstanding) {
            long silentFor = now - pingSentNanos;
            if (silentFor < timeoutNanos) {
                schedule(ctx, timeoutNanos - silentFor);
                return;
            }
            log.warn(
                    "Closing a connection to {} ({}): no answer to a PING within {} ms; new calls go elsewhere",
                    border,
                    ctx.channel().remoteAddress(),
                    TimeUnit.NANOSECONDS.toMillis(timeoutNanos));
            stop(ctx, true);
            ctx.channel().config().setOption(ChannelOption.SO_LINGER, 0);
            // From the first handler's context: straight to the socket, past TLS's close_notify.
            ctx.close();
            return;
        }
        long quietFor = now - lastReadNanos;
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
        pingSentNanos = now;
        watch.doubt(ctx.channel());
        // Written from the tail so that the HTTP/2 codec (above this handler) encodes it.
        ctx.channel()
                .writeAndFlush(
                        new DefaultHttp2PingFrame(ThreadLocalRandom.current().nextLong()));
        schedule(ctx, timeoutNanos);
    }

    private void stop(ChannelHandlerContext ctx, boolean silent) {
        if (check != null) {
            check.cancel(false);
            check = null;
        }
        if (pingOutstanding) {
            pingOutstanding = false;
            watch.settle(ctx.channel(), silent);
        }
    }
}
