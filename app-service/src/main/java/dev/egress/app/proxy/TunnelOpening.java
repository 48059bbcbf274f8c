package dev.egress.app.proxy;

import dev.egress.discovery.registry.Route;
import dev.egress.discovery.web.problem.ProblemException;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import java.time.Duration;
import java.util.ArrayDeque;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;

/**
 * The phase between an admitted request and a tunnel that carries bytes both ways: the tunnel is asked for through
 * {@link TunnelDispatcher} (App's per-IP place first), the sender's early bytes are held (up to
 * {@value #MAX_EARLY_BYTES} bytes: a sender that does not wait for 200), and once a Border has the tunnel up the
 * sender is told ({@link ProxyRequest#established}), the target's bytes flow to it ({@link TargetWriter}) and, once
 * the tunnel's stream takes the sender's bytes, this phase gives way to {@link SenderToTarget}. A tunnel that never
 * came up is answered with its problem. Everything that touches the connection runs on its event loop.
 */
final class TunnelOpening extends ChannelInboundHandlerAdapter {

    /** Pipeline name of this phase. */
    static final String NAME = "proxy.opening";

    private static final Logger log = LoggerFactory.getLogger(TunnelOpening.class);
    /** Above one socket read (64 KiB) plus the re-framing of a chunked body read with it. */
    private static final int MAX_EARLY_BYTES = 128 * 1024;

    private final ProxyContext context;
    private final ProxyRequest request;
    private final ProxyDoor.Admitted admitted;
    private final Tunnel tunnel;
    private final ArrayDeque<ByteBuf> early = new ArrayDeque<>();
    private final long started = System.nanoTime();
    private int earlyBytes;
    /** The tunnel's stream, once it takes the sender's bytes. */
    private @Nullable FluxSink<ByteBuf> toTarget;
    /** Whether a Border has the tunnel up. */
    private boolean up;

    private @Nullable Disposable opening;

    TunnelOpening(ProxyContext context, ProxyRequest request, ProxyDoor.Admitted admitted, @Nullable ByteBuf first) {
        this.context = context;
        this.request = request;
        this.admitted = admitted;
        this.tunnel = new Tunnel(context, admitted.tenant(), admitted.target());
        if (first != null) {
            early.add(first);
        }
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        String quota = admitted.quota();
        Flux<ByteBuf> fromSender = Flux.<ByteBuf>create(sink -> ctx.executor().execute(() -> senderStream(ctx, sink)))
                .doOnNext(bytes -> tunnel.sent(bytes.readableBytes()))
                .doOnDiscard(ByteBuf.class, ReferenceCountUtil::release);
        Splice splice = new Splice(ctx);
        opening = context.dispatcher()
                .open(
                        admitted.resolution(),
                        quota,
                        admitted.target(),
                        context.properties().connectTimeout(),
                        fromSender,
                        splice)
                .doFinally(signal -> context.limits().releaseTenant(quota))
                .subscribe(tunnel::ended, error -> ctx.executor().execute(() -> failed(ctx, error)));
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        FluxSink<ByteBuf> sink = toTarget;
        if (sink != null && msg instanceof ByteBuf bytes) {
            sink.next(bytes);
            return;
        }
        if (!(msg instanceof ByteBuf bytes) || earlyBytes + bytes.readableBytes() > MAX_EARLY_BYTES) {
            ReferenceCountUtil.release(msg);
            ctx.close();
            return;
        }
        earlyBytes += bytes.readableBytes();
        early.add(bytes);
    }

    /** Runs on the event loop once the tunnel's stream subscribes to the sender's bytes. */
    private void senderStream(ChannelHandlerContext ctx, FluxSink<ByteBuf> sink) {
        if (ctx.isRemoved() || !ctx.channel().isActive()) {
            sink.complete();
            return;
        }
        while (!early.isEmpty()) {
            sink.next(early.poll());
        }
        toTarget = sink;
        spliceIfReady(ctx);
    }

    /** Both sides are ready: the sender's bytes go straight into the stream from here. */
    private void spliceIfReady(ChannelHandlerContext ctx) {
        FluxSink<ByteBuf> sink = toTarget;
        if (up && sink != null && !ctx.isRemoved()) {
            ctx.pipeline().replace(this, SenderToTarget.NAME, new SenderToTarget(sink));
        }
    }

    /** The tunnel never came up: answer with its problem (the sender may already be gone). */
    private void failed(ChannelHandlerContext ctx, Throwable error) {
        if (!(error instanceof ProblemException)) {
            log.warn("Unexpected failure opening a tunnel", error);
        }
        Refused.answer(
                ctx,
                context.metrics(),
                ProxyAnswers.notOpened(error),
                admitted.resolution().tenantClass(),
                request.bodyMayFollow());
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        tunnel.closed();
        FluxSink<ByteBuf> sink = toTarget;
        if (sink != null) {
            sink.complete();
        }
        Disposable connecting = opening;
        if (!up && connecting != null) {
            connecting.dispose();
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        early.forEach(ReferenceCountUtil::release);
        early.clear();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("Proxy connection failed: {}", cause.toString());
        ctx.close();
    }

    /** What the dispatcher does with this connection: App's per-IP place, then the tunnel once it is up. */
    private final class Splice implements TunnelDispatcher.Splice {
        private final ChannelHandlerContext ctx;

        Splice(ChannelHandlerContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public boolean admit(Route route) {
            return context.limits().tryIp(route.ip().value());
        }

        @Override
        public void release(Route route) {
            context.limits().releaseIp(route.ip().value());
        }

        @Override
        public Mono<Void> established(Route route, Flux<ByteBuf> target) {
            context.metrics().connected(route.ip().value(), Duration.ofNanos(System.nanoTime() - started));
            context.metrics()
                    .opened(admitted.resolution().tenantClass(), route.ip().value());
            return Mono.create(done -> ctx.executor().execute(() -> start(target, done)));
        }

        private void start(Flux<ByteBuf> target, MonoSink<Void> done) {
            if (ctx.isRemoved() || !ctx.channel().isActive()) {
                done.success();
                return;
            }
            up = true;
            TargetWriter writer = new TargetWriter(
                    ctx.channel(), done, tunnel, context.memory().account(admitted.quota()));
            tunnel.established(ctx, writer);
            request.established(ctx);
            target.subscribe(writer);
            spliceIfReady(ctx);
        }
    }
}
