package dev.egress.app.proxy;

import dev.egress.discovery.web.forward.TunnelCall;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * One tunnel's life from the proxy's side: the bytes each way, how it ended, and its limits once a Border has it
 * up (the idle timeout, the maximum lifetime, and a sender that does not read what waits for it). Its one
 * transition is {@link #end}: the first reason wins and the connection closes; closing ends the splice both ways.
 * In the pipeline from the moment the tunnel is up, so it sees the idle events and the close.
 */
final class Tunnel extends ChannelInboundHandlerAdapter {

    /** Pipeline name, once the tunnel is up. */
    static final String NAME = "proxy.tunnel";

    private final ProxyContext context;
    private final String tenant;
    private final TunnelCall target;
    private final AtomicLong up = new AtomicLong();
    private final AtomicLong down = new AtomicLong();
    /** Set once, on the connection's event loop; read when the tunnel's stream has ended. */
    private volatile @Nullable String outcome;

    private volatile long establishedNanos;
    private @Nullable ScheduledFuture<?> lifetime;
    private @Nullable TargetWriter writer;

    Tunnel(ProxyContext context, String tenant, TunnelCall target) {
        this.context = context;
        this.tenant = tenant;
        this.target = target;
    }

    /** Bytes that went from the sender into the tunnel. */
    void sent(long bytes) {
        up.addAndGet(bytes);
    }

    /** Bytes that went from the target to the sender. */
    void received(long bytes) {
        down.addAndGet(bytes);
    }

    /**
     * The Border has the tunnel up: its limits start, before the phase that opened it.
     *
     * @param opening the opening phase's context
     * @param writer  the target's side of the splice, stopped when the connection closes
     */
    void established(ChannelHandlerContext opening, TargetWriter writer) {
        this.writer = writer;
        establishedNanos = System.nanoTime();
        ProxyProperties properties = context.properties();
        // All idle: no byte either way (idle-timeout). Writer idle: no write to the sender finished for the stall
        // timeout, which with bytes waiting for it is a sender that does not read (sender-stalled).
        long stall = context.limitSettings().senderStallTimeout().toMillis();
        opening.pipeline()
                .addBefore(
                        opening.name(),
                        "proxy.idle",
                        new IdleStateHandler(0, stall, properties.idleTimeout().toMillis(), TimeUnit.MILLISECONDS))
                .addBefore(opening.name(), NAME, this);
        Channel channel = opening.channel();
        lifetime = opening.executor()
                .schedule(
                        () -> end(channel, "max-lifetime"),
                        properties.maxLifetime().toMillis(),
                        TimeUnit.MILLISECONDS);
    }

    /**
     * Ends the tunnel for a reason: the first one given is the one recorded.
     *
     * @param channel the sender's connection
     * @param why     e.g. {@code target-closed}, {@code idle-timeout}
     */
    void end(Channel channel, String why) {
        if (outcome == null) {
            outcome = why;
        }
        channel.close();
    }

    /** The connection closed: whatever ended it, the splice stops and the timers go. */
    void closed() {
        if (outcome == null) {
            outcome = "sender-closed";
        }
        TargetWriter reader = writer;
        if (reader != null) {
            reader.dispose();
        }
        ScheduledFuture<?> timer = lifetime;
        if (timer != null) {
            timer.cancel(false);
        }
    }

    /**
     * The tunnel's stream has ended: one log line and the meters.
     *
     * @param ended how the dispatcher saw it
     */
    void ended(TunnelDispatcher.Ended ended) {
        String why = outcome;
        context.metrics()
                .ended(new ProxyMetrics.TunnelRecord(
                        tenant,
                        target.authority(),
                        ended.route().ip().value(),
                        ended.route().borderId().value(),
                        up.get(),
                        down.get(),
                        (System.nanoTime() - establishedNanos) / 1_000_000,
                        why == null ? "border-lost" : why));
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof IdleStateEvent idle) {
            TargetWriter reader = writer;
            if (idle.state() == IdleState.ALL_IDLE) {
                end(ctx.channel(), "idle-timeout");
            } else if (idle.state() == IdleState.WRITER_IDLE && reader != null && reader.pending() > 0) {
                end(ctx.channel(), "sender-stalled");
            }
            return;
        }
        ctx.fireUserEventTriggered(event);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        closed();
        ctx.fireChannelInactive();
    }
}
