package dev.egress.app.proxy;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.FluxSink;

/**
 * Sender to target, the Netty way (auto-read off): the sender's socket is read only when the tunnel's stream asks
 * for more, so a slow target (through the stream's flow control) slows the sender instead of filling App's memory.
 * The close of the sender's connection ends the stream.
 */
final class SenderToTarget extends ChannelInboundHandlerAdapter {

    /** Pipeline name, last in the pipeline once the tunnel is up. */
    static final String NAME = "proxy.splice";

    private static final Logger log = LoggerFactory.getLogger(SenderToTarget.class);

    private final FluxSink<ByteBuf> target;

    SenderToTarget(FluxSink<ByteBuf> target) {
        this.target = target;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        target.onRequest(n -> ctx.executor().execute(ctx::read));
        if (target.requestedFromDownstream() > 0) {
            ctx.read();
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ByteBuf bytes) {
            target.next(bytes);
        } else {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (target.requestedFromDownstream() > 0) {
            ctx.read();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        target.complete();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("Proxy connection failed: {}", cause.toString());
        ctx.close();
    }
}
