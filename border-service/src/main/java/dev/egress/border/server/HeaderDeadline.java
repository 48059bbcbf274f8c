package dev.egress.border.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A deadline from the first byte of a request to the end of its headers, per connection. Two handlers
 * share it: {@link #raw()} sits before the HTTP decoder and starts the clock on the first byte of a
 * request, {@link #decoded()} sits after it and stops the clock when the decoded request head appears;
 * the response's last write ends the request, so the next byte starts a new clock. An idle timer cannot
 * do this: it is reset by every byte, so a client sending one byte every few seconds would never time
 * out. All state lives on the channel's event loop.
 */
final class HeaderDeadline {

    private final long timeoutNanos;
    private boolean inRequest;
    private ScheduledFuture<?> timer;

    HeaderDeadline(Duration timeout) {
        this.timeoutNanos = timeout.toNanos();
    }

    ChannelInboundHandlerAdapter raw() {
        return new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (msg instanceof ByteBuf && !inRequest && timer == null) {
                    timer = ctx.executor().schedule(() -> {
                        timer = null;
                        ctx.channel().close();
                    }, timeoutNanos, TimeUnit.NANOSECONDS);
                }
                ctx.fireChannelRead(msg);
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                cancel();
                ctx.fireChannelInactive();
            }
        };
    }

    ChannelDuplexHandler decoded() {
        return new ChannelDuplexHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (msg instanceof HttpRequest) {
                    inRequest = true;
                    cancel();
                }
                ctx.fireChannelRead(msg);
            }

            @Override
            public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                if (msg instanceof LastHttpContent) {
                    inRequest = false;
                }
                ctx.write(msg, promise);
            }
        };
    }

    private void cancel() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }
}
