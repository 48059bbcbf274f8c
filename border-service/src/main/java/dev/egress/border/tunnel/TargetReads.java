package dev.egress.border.tunnel;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.util.ReferenceCountUtil;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.netty.Connection;
import reactor.netty.NettyPipeline;

/**
 * Reads a tunnel's target only when the splice asks for a buffer, one buffer of {@value #CHUNK} bytes per ask. The
 * target connection never reads on its own (no auto-read): Reactor Netty's receive turns auto-read back on while it
 * queues up to 32 messages, and each read event pulls up to 16 buffers sized up to 64 KiB, so a tunnel whose App side
 * does not drain could hold megabytes of direct memory before anything noticed. Here a read happens only when the
 * previous buffer has been handed on and more is asked for, so what one tunnel holds on the target side is one
 * buffer; what waits for App's stream is bounded by that stream's writability ({@link Writability}).
 */
final class TargetReads extends ChannelInboundHandlerAdapter {

    /** Bytes read from a target per ask: one HTTP/2 frame's worth (the default max frame size). */
    static final int CHUNK = 16 * 1024;

    /** The target connection's read buffers: {@value #CHUNK} bytes, one per read event. */
    static final RecvByteBufAllocator ALLOCATOR = new FixedRecvByteBufAllocator(CHUNK).maxMessagesPerRead(1);

    private static final String NAME = "egress.tunnelReads";

    private final FluxSink<ByteBuf> sink;
    private boolean reading;

    private TargetReads(FluxSink<ByteBuf> sink) {
        this.sink = sink;
    }

    /**
     * The target's bytes, read as they are asked for. The connection must have been opened without auto-read and with
     * {@link #ALLOCATOR}.
     *
     * @param target the target connection
     * @return its bytes, one buffer per read; completes when the target closes
     */
    static Flux<ByteBuf> of(Connection target) {
        Channel channel = target.channel();
        return Flux.create(
                sink -> channel.eventLoop().execute(() -> {
                    TargetReads reads = new TargetReads(sink);
                    if (!channel.isActive()) {
                        sink.complete();
                        return;
                    }
                    // In front of Reactor Netty's bridge: the bytes are this handler's, not its receive's.
                    channel.pipeline().addBefore(NettyPipeline.ReactiveBridge, NAME, reads);
                    sink.onRequest(n -> channel.eventLoop().execute(() -> reads.pull(channel)));
                    sink.onDispose(() -> channel.eventLoop().execute(() -> remove(channel)));
                    reads.pull(channel);
                }),
                // Never more than one buffer: a read happens only on demand.
                FluxSink.OverflowStrategy.BUFFER);
    }

    /** Asks the target for one more buffer if the splice wants one and none is on its way. */
    private void pull(Channel channel) {
        if (!reading && sink.requestedFromDownstream() > 0 && !sink.isCancelled() && channel.isActive()) {
            reading = true;
            channel.read();
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf buf) || sink.isCancelled()) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (buf.isReadable()) {
            sink.next(buf);
        } else {
            buf.release();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        reading = false;
        pull(ctx.channel());
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        sink.complete();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        sink.error(cause);
        ctx.fireExceptionCaught(cause);
    }

    private static void remove(@Nullable Channel channel) {
        if (channel != null && channel.pipeline().get(NAME) != null) {
            channel.pipeline().remove(NAME);
        }
    }
}
