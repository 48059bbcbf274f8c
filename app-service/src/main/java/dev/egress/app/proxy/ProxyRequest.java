package dev.egress.app.proxy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpRequest;
import org.jspecify.annotations.Nullable;

/**
 * The one place where a CONNECT and an absolute-form {@code http://} request differ. A CONNECT's target is its
 * authority; once it is admitted the HTTP codec leaves the pipeline, the sender's bytes go to the target as they
 * are, and the sender hears {@code 200 Connection established} when the tunnel is up. An absolute-form request
 * ({@link OriginRequest}) keeps the codec: its rewritten head goes first, its body's pieces follow through
 * {@link OriginBody}, nothing after them does, and the target's answer is the first byte the sender sees.
 */
abstract sealed class ProxyRequest {

    private final HttpRequest head;

    private ProxyRequest(HttpRequest head) {
        this.head = head;
    }

    /**
     * A CONNECT whose head is complete.
     *
     * @param head the request head
     * @return the request
     */
    static ProxyRequest connect(HttpRequest head) {
        return new Connect(head);
    }

    /**
     * A request that is not a CONNECT: absolute-form {@code http://}, or a refusal.
     *
     * @param head the request head
     * @return the request
     * @throws ProxyAuthenticator.Refused with the 400 to give
     */
    static ProxyRequest absolute(HttpRequest head) throws ProxyAuthenticator.Refused {
        return new Absolute(head, ProxyDoor.absolute(head));
    }

    /** The request head: its {@code Proxy-Authorization} and, for a CONNECT, its target. */
    final HttpRequest head() {
        return head;
    }

    /** The absolute-form request, or null for a CONNECT. */
    abstract @Nullable OriginRequest origin();

    /** Whether request bytes may still be on their way when a refusal is written (an absolute-form body). */
    abstract boolean bodyMayFollow();

    /**
     * Readies the pipeline for the tunnel once the request is admitted, and gives the bytes that go first.
     *
     * @param ctx the connection
     * @return the bytes the target reads first (the rewritten head), or null
     */
    abstract @Nullable ByteBuf admitted(ChannelHandlerContext ctx);

    /**
     * Tells the sender the tunnel is up, if it expects to be told.
     *
     * @param ctx the connection
     */
    abstract void established(ChannelHandlerContext ctx);

    /** The CONNECT method: raw bytes both ways. */
    private static final class Connect extends ProxyRequest {
        Connect(HttpRequest head) {
            super(head);
        }

        @Override
        @Nullable
        OriginRequest origin() {
            return null;
        }

        @Override
        boolean bodyMayFollow() {
            return false;
        }

        @Override
        @Nullable
        ByteBuf admitted(ChannelHandlerContext ctx) {
            ctx.pipeline().remove(ProxyHead.DECODER);
            return null;
        }

        @Override
        void established(ChannelHandlerContext ctx) {
            ctx.writeAndFlush(Unpooled.wrappedBuffer(ProxyAnswers.ESTABLISHED));
        }
    }

    /** An absolute-form request carried through a tunnel. */
    private static final class Absolute extends ProxyRequest {
        private final OriginRequest origin;

        Absolute(HttpRequest head, OriginRequest origin) {
            super(head);
            this.origin = origin;
        }

        @Override
        OriginRequest origin() {
            return origin;
        }

        @Override
        boolean bodyMayFollow() {
            return true;
        }

        @Override
        ByteBuf admitted(ChannelHandlerContext ctx) {
            ctx.pipeline().addAfter(ProxyHead.DECODER, OriginBody.NAME, new OriginBody(origin));
            return origin.head(ctx.alloc());
        }

        @Override
        void established(ChannelHandlerContext ctx) {
            // The target's answer is the sender's first byte.
        }
    }
}
