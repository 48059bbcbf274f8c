package dev.egress.border.tunnel;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.ArrayDeque;
import java.util.Queue;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;
import reactor.netty.NettyPipeline;

/**
 * Waits, without a thread, until a channel can take more writes: the tunnel's App side (its HTTP/2 stream, whose
 * writability follows the stream's flow-control window and the connection's own). The splice asks before it reads
 * the next chunk from the target, so a tunnel whose App side does not drain stops reading its target instead of
 * buffering it: what one tunnel holds is about one read and one pending frame, whatever the target sends. A
 * handler at the end of the channel's pipeline completes the waiters when the channel turns writable or closes.
 */
final class Writability extends ChannelInboundHandlerAdapter {

    private static final String NAME = "egress.tunnelWritability";

    private final Queue<MonoSink<Void>> waiting = new ArrayDeque<>();

    private Writability() {}

    /**
     * Completes once the channel is writable (at once if it is) or closed.
     *
     * @param channel the channel, or null (not known: nothing to wait for)
     * @return the wait
     */
    static Mono<Void> of(@Nullable Channel channel) {
        if (channel == null || channel.isWritable() || !channel.isActive()) {
            return Mono.empty();
        }
        return Mono.create(sink -> channel.eventLoop().execute(() -> {
            if (channel.isWritable() || !channel.isActive()) {
                sink.success();
                return;
            }
            Writability handler = (Writability) channel.pipeline().get(NAME);
            if (handler == null) {
                handler = new Writability();
                // In front of Reactor Netty's bridge, which consumes the events it handles.
                if (channel.pipeline().get(NettyPipeline.ReactiveBridge) != null) {
                    channel.pipeline().addBefore(NettyPipeline.ReactiveBridge, NAME, handler);
                } else {
                    channel.pipeline().addLast(NAME, handler);
                }
            }
            handler.waiting.add(sink);
        }));
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            release();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        release();
        ctx.fireChannelInactive();
    }

    private void release() {
        for (MonoSink<Void> sink; (sink = waiting.poll()) != null; ) {
            sink.success();
        }
    }
}
