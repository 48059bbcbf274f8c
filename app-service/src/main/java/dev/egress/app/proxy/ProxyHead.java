package dev.egress.app.proxy;

import dev.egress.discovery.web.problem.Problem;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first phase of a sender's connection: the request head, decoded by Netty's HTTP/1.1 codec, within
 * {@code egress.proxy.request-header-timeout}; then the checks ({@link ProxyDoor}: port, credentials, tenant; each
 * refusal a problem+json answer that closes the connection) and the tenant's tunnel limit. An admitted request
 * hands the connection to the next phase, {@link TunnelOpening}, before the codec yields another message, so the
 * bytes that came with the head go there.
 */
final class ProxyHead extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(ProxyHead.class);

    /** Pipeline name of the head's decoder; a CONNECT removes it once admitted. */
    static final String DECODER = "proxy.decoder";

    /** Pipeline name of this phase. */
    static final String NAME = "proxy.head";

    private final ProxyContext context;
    /** A CONNECT's head, until the codec says the head is complete. */
    private @Nullable HttpRequest connect;
    /** Cancelled when this phase ends: a pending task would keep the connection reachable. */
    private @Nullable ScheduledFuture<?> deadline;
    /** This connection's place among those still sending a head; given back when this phase ends. */
    private HeadSlots.@Nullable Slot slot;

    ProxyHead(ProxyContext context) {
        this.context = context;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        slot = context.heads().tryTake(peer(ctx));
        if (slot == null) {
            // Over the listener's or this source's share: closed at once, not kept waiting for a head.
            Refused.logged(
                    ctx, "too-many-connections", "connections still sending their request head are at the limit");
            context.metrics().refused("too-many-connections", "unknown");
            ctx.close();
            return;
        }
        long millis = context.properties().requestHeaderTimeout().toMillis();
        deadline = ctx.executor().schedule(() -> timedOut(ctx), millis, TimeUnit.MILLISECONDS);
        ctx.fireChannelActive();
    }

    private void timedOut(ChannelHandlerContext ctx) {
        if (!ctx.isRemoved()) {
            ctx.close();
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        ScheduledFuture<?> timer = deadline;
        if (timer != null) {
            timer.cancel(false);
        }
        HeadSlots.Slot place = slot;
        if (place != null) {
            place.release();
        }
    }

    private static InetAddress peer(ChannelHandlerContext ctx) {
        return ((InetSocketAddress) ctx.channel().remoteAddress()).getAddress();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (msg instanceof HttpRequest request) {
                head(ctx, request);
            } else if (msg instanceof LastHttpContent && connect != null) {
                // The CONNECT's head is complete: nothing of the codec is left to deliver.
                HttpRequest request = connect;
                connect = null;
                admit(ctx, ProxyRequest.connect(request));
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private void head(ChannelHandlerContext ctx, HttpRequest request) {
        ctx.channel().config().setAutoRead(false);
        if (request.decoderResult().isFailure()) {
            refuse(ctx, ProxyAnswers.malformed("the request head is not valid HTTP/1.1"), "unknown", false);
            return;
        }
        if (HttpMethod.CONNECT.equals(request.method())) {
            connect = request;
            ctx.read();
            return;
        }
        ProxyRequest absolute;
        try {
            absolute = ProxyRequest.absolute(request);
        } catch (ProxyAuthenticator.Refused e) {
            refuse(ctx, e.problem(), "unknown", false);
            return;
        }
        admit(ctx, absolute);
    }

    private void admit(ChannelHandlerContext ctx, ProxyRequest request) {
        ProxyDoor.Admitted admitted;
        try {
            admitted = ProxyDoor.admit(context, request, peer(ctx));
        } catch (ProxyAuthenticator.Refused e) {
            refuse(ctx, e.problem(), "unknown", request.bodyMayFollow());
            return;
        }
        if (!context.limits().tryTenant(admitted.quota())) {
            refuse(
                    ctx,
                    ProxyAnswers.tooManyTunnels(
                            admitted.tenant(), context.properties().maxTunnelsPerTenant()),
                    admitted.resolution().tenantClass(),
                    request.bodyMayFollow());
            return;
        }
        ByteBuf first = request.admitted(ctx);
        ctx.pipeline().replace(this, TunnelOpening.NAME, new TunnelOpening(context, request, admitted, first));
    }

    private void refuse(ChannelHandlerContext ctx, Problem problem, String tenantClass, boolean bodyMayFollow) {
        Refused.answer(ctx, context.metrics(), problem, tenantClass, bodyMayFollow);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("Proxy connection failed: {}", cause.toString());
        ctx.close();
    }
}
