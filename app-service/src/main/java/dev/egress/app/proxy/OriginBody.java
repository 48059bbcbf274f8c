package dev.egress.app.proxy;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.util.ReferenceCountUtil;

/**
 * An absolute-form request's body as the target reads it ({@link OriginRequest#body}): each decoded piece becomes
 * bytes for the tunnel; whatever the sender writes after the request's end is dropped, so a pipelined second
 * request (with its own {@code Proxy-Authorization}) never reaches the target.
 */
final class OriginBody extends ChannelInboundHandlerAdapter {

    /** Pipeline name, right after the decoder. */
    static final String NAME = "proxy.origin-body";

    private final OriginRequest origin;

    OriginBody(OriginRequest origin) {
        this.origin = origin;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Object bytes;
        try {
            bytes = msg instanceof HttpContent content ? origin.body(ctx.alloc(), content) : null;
        } finally {
            ReferenceCountUtil.release(msg);
        }
        if (bytes != null) {
            ctx.fireChannelRead(bytes);
        }
    }
}
