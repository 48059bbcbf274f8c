package dev.egress.app.proxy;

import dev.egress.app.dispatch.TunnelDispatcher;
import dev.egress.app.routing.Resolution;
import dev.egress.discovery.registry.Route;
import dev.egress.discovery.web.forward.TunnelCall;
import dev.egress.discovery.web.problem.Problem;
import dev.egress.discovery.web.problem.ProblemException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;

/**
 * One sender connection. First the request head, decoded by Netty's HTTP/1.1 codec; a CONNECT or an absolute-form
 * {@code http://} request is checked ({@link ProxyDoor}: each refusal a problem+json answer that closes the
 * connection) and the tunnel is asked for through {@link TunnelDispatcher}. For a CONNECT the codec leaves the
 * pipeline and, once a Border has the tunnel up, the sender gets {@code 200 Connection established}; an
 * absolute-form request keeps the codec so that its rewritten head and body ({@link OriginRequest}) go into the
 * tunnel and nothing after them does, and the target's answer is the first byte the sender sees. Bytes are spliced
 * with backpressure both ways, the Netty way: the sender's socket is read only when the tunnel's stream asks for
 * more (auto-read off), and the next byte from the target is asked for only when the previous write reached the
 * sender's socket. Either side ending closes the other; the idle timeout and the maximum lifetime close both.
 * Everything that touches the connection runs on its event loop.
 */
final class ProxyFrontend extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(ProxyFrontend.class);
    /** Above one socket read (64 KiB) plus the re-framing of a chunked body read with it. */
    private static final int MAX_EARLY_BYTES = 128 * 1024;

    /** Pipeline name of the head's decoder, removed once a CONNECT is accepted. */
    static final String DECODER = "proxy.decoder";

    private enum State {
        HEAD,
        CONNECTING,
        TUNNEL,
        CLOSED
    }

    private final ProxyContext context;
    private State state = State.HEAD;
    private @Nullable HttpRequest connect;
    private @Nullable OriginRequest origin;
    private @Nullable ChannelHandlerContext ctx;
    private final ArrayDeque<ByteBuf> early = new ArrayDeque<>();
    private int earlyBytes;
    private @Nullable FluxSink<ByteBuf> toTarget;
    private @Nullable TargetWriter fromTarget;
    private @Nullable Disposable opening;
    private final AtomicLong up = new AtomicLong();
    private final AtomicLong down = new AtomicLong();
    private @Nullable String outcome;
    private long establishedNanos;
    /** Cancelled when the connection closes: a pending task would keep the closed connection reachable. */
    private @Nullable ScheduledFuture<?> headTimer;

    private @Nullable ScheduledFuture<?> lifetime;

    ProxyFrontend(ProxyContext context) {
        this.context = context;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        Duration headTimeout = context.properties().requestHeaderTimeout();
        headTimer = ctx.executor()
                .schedule(
                        () -> {
                            if (state == State.HEAD) {
                                ctx.close();
                            }
                        },
                        headTimeout.toMillis(),
                        TimeUnit.MILLISECONDS);
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        switch (state) {
            case HEAD -> {
                try {
                    if (msg instanceof HttpRequest request) {
                        head(ctx, request);
                    } else if (msg instanceof LastHttpContent && connect != null) {
                        // The CONNECT's head is complete: nothing of the codec is left to deliver.
                        HttpRequest request = connect;
                        connect = null;
                        admit(ctx, request);
                    }
                } finally {
                    ReferenceCountUtil.release(msg);
                }
            }
            case CONNECTING -> {
                Object bytes = toTarget(ctx, msg);
                if (bytes != null) {
                    early(ctx, bytes);
                }
            }
            case TUNNEL -> {
                FluxSink<ByteBuf> sink = toTarget;
                Object forTarget = toTarget(ctx, msg);
                if (forTarget == null) {
                    return;
                }
                if (sink != null && forTarget instanceof ByteBuf bytes) {
                    up.addAndGet(bytes.readableBytes());
                    sink.next(bytes);
                } else {
                    early(ctx, forTarget);
                }
            }
            case CLOSED -> ReferenceCountUtil.release(msg);
        }
    }

    /** A CONNECT's bytes as they are; an absolute-form request's body pieces as the target reads them. */
    private @Nullable Object toTarget(ChannelHandlerContext ctx, Object msg) {
        OriginRequest absolute = origin;
        if (absolute == null) {
            return msg;
        }
        try {
            return msg instanceof HttpContent content ? absolute.body(ctx.alloc(), content) : null;
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    /** Whether the sender's socket is still read: not after an absolute-form request's end. */
    private boolean reading() {
        OriginRequest absolute = origin;
        return state == State.TUNNEL && (absolute == null || !absolute.finished());
    }

    /** Bytes that arrive before the tunnel's stream takes them (a sender that does not wait for 200). */
    private void early(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf bytes) || earlyBytes + bytes.readableBytes() > MAX_EARLY_BYTES) {
            ReferenceCountUtil.release(msg);
            ctx.close();
            return;
        }
        earlyBytes += bytes.readableBytes();
        up.addAndGet(bytes.readableBytes());
        early.add(bytes);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        FluxSink<ByteBuf> sink = toTarget;
        if (reading() && sink != null && sink.requestedFromDownstream() > 0) {
            ctx.read();
        }
    }

    private void head(ChannelHandlerContext ctx, HttpRequest request) {
        ctx.channel().config().setAutoRead(false);
        if (request.decoderResult().isFailure()) {
            refuse(ctx, ProxyAnswers.malformed("the request head is not valid HTTP/1.1"), "unknown");
            return;
        }
        if (HttpMethod.CONNECT.equals(request.method())) {
            connect = request;
            ctx.read();
            return;
        }
        try {
            origin = ProxyDoor.absolute(request);
        } catch (ProxyAuthenticator.Refused e) {
            refuse(ctx, e.problem(), "unknown");
            return;
        }
        admit(ctx, request);
    }

    private void admit(ChannelHandlerContext ctx, HttpRequest request) {
        ProxyDoor.Admitted admitted;
        try {
            admitted = ProxyDoor.admit(
                    context, request, origin, ((InetSocketAddress) ctx.channel().remoteAddress()).getAddress());
        } catch (ProxyAuthenticator.Refused e) {
            refuse(ctx, e.problem(), "unknown");
            return;
        }
        OriginRequest absolute = origin;
        if (absolute != null) {
            // The rewritten head goes first; the body's pieces follow it as the decoder yields them.
            ByteBuf head = absolute.head(ctx.alloc());
            up.addAndGet(head.readableBytes());
            early.add(head);
        }
        open(ctx, admitted.tenant(), admitted.resolution(), admitted.target());
    }

    private void open(ChannelHandlerContext ctx, String tenant, Resolution resolution, TunnelCall target) {
        if (!context.limits().tryTenant(tenant)) {
            refuse(
                    ctx,
                    ProxyAnswers.tooManyTunnels(tenant, context.properties().maxTunnelsPerTenant()),
                    resolution.tenantClass());
            return;
        }
        state = State.CONNECTING;
        if (origin == null) {
            ctx.pipeline().remove(DECODER);
        }
        long started = System.nanoTime();
        Flux<ByteBuf> fromSender = Flux.<ByteBuf>create(sink -> ctx.executor().execute(() -> senderStream(ctx, sink)))
                .doOnDiscard(ByteBuf.class, ReferenceCountUtil::release);
        Splice splice = new Splice(ctx, started, resolution.tenantClass());
        opening = context.dispatcher()
                .open(resolution, target, context.properties().connectTimeout(), fromSender, splice)
                .doFinally(signal -> context.limits().releaseTenant(tenant))
                .subscribe(
                        ended -> context.metrics()
                                .ended(new ProxyMetrics.TunnelRecord(
                                        tenant,
                                        target.authority(),
                                        ended.route().ip().value(),
                                        ended.route().borderId().value(),
                                        up.get(),
                                        down.get(),
                                        (System.nanoTime() - establishedNanos) / 1_000_000,
                                        outcome == null ? "border-lost" : outcome)),
                        error -> ctx.executor().execute(() -> failed(ctx, error, resolution.tenantClass())));
    }

    /** The tunnel never came up: answer with its problem (the sender may already be gone). */
    private void failed(ChannelHandlerContext ctx, Throwable error, String tenantClass) {
        if (!(error instanceof ProblemException)) {
            log.warn("Unexpected failure opening a tunnel", error);
        }
        refuse(ctx, ProxyAnswers.notOpened(error), tenantClass);
    }

    /** Runs on the event loop once the tunnel's stream subscribes to the sender's bytes. */
    private void senderStream(ChannelHandlerContext ctx, FluxSink<ByteBuf> sink) {
        if (state == State.CLOSED) {
            sink.complete();
            return;
        }
        while (!early.isEmpty()) {
            sink.next(early.poll());
        }
        toTarget = sink;
        sink.onRequest(n -> ctx.executor().execute(() -> {
            if (reading()) {
                ctx.read();
            }
        }));
    }

    private void refuse(ChannelHandlerContext ctx, Problem problem, String tenantClass) {
        context.metrics().refused(ProxyAnswers.outcomeOf(problem), tenantClass);
        state = State.CLOSED;
        if (ctx.channel().isActive()) {
            ProxyAnswers.send(ctx, problem, origin != null);
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof IdleStateEvent && state == State.TUNNEL) {
            end(ctx, "idle-timeout");
            return;
        }
        ctx.fireUserEventTriggered(event);
    }

    private void end(ChannelHandlerContext ctx, String why) {
        if (outcome == null) {
            outcome = why;
        }
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        State was = state;
        state = State.CLOSED;
        if (outcome == null) {
            outcome = "sender-closed";
        }
        FluxSink<ByteBuf> sink = toTarget;
        if (sink != null) {
            sink.complete();
        }
        TargetWriter reader = fromTarget;
        if (reader != null) {
            reader.dispose();
        }
        Disposable connecting = opening;
        if (was == State.CONNECTING && connecting != null) {
            connecting.dispose();
        }
        cancel(headTimer);
        cancel(lifetime);
        early.forEach(ReferenceCountUtil::release);
        early.clear();
        ctx.fireChannelInactive();
    }

    private static void cancel(@Nullable ScheduledFuture<?> task) {
        if (task != null) {
            task.cancel(false);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("Proxy connection failed: {}", cause.toString());
        ctx.close();
    }

    /** The tunnel's lifetime once a Border has it up: per-IP place, the 200, the splice from the target. */
    private final class Splice implements TunnelDispatcher.Splice {
        private final ChannelHandlerContext ctx;
        private final long started;
        private final String tenantClass;

        Splice(ChannelHandlerContext ctx, long started, String tenantClass) {
            this.ctx = ctx;
            this.started = started;
            this.tenantClass = tenantClass;
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
            context.metrics().opened(tenantClass, route.ip().value());
            return Mono.create(done -> ctx.executor().execute(() -> start(route, target, done)));
        }

        private void start(Route route, Flux<ByteBuf> target, MonoSink<Void> done) {
            if (state != State.CONNECTING || !ctx.channel().isActive()) {
                done.success();
                return;
            }
            state = State.TUNNEL;
            establishedNanos = System.nanoTime();
            ProxyProperties properties = context.properties();
            ctx.pipeline()
                    .addBefore(
                            ctx.name(),
                            "proxy.idle",
                            new IdleStateHandler(0, 0, properties.idleTimeout().toMillis(), TimeUnit.MILLISECONDS));
            lifetime = ctx.executor()
                    .schedule(
                            () -> end(ctx, "max-lifetime"),
                            properties.maxLifetime().toMillis(),
                            TimeUnit.MILLISECONDS);
            if (origin == null) {
                ctx.writeAndFlush(Unpooled.wrappedBuffer(ProxyAnswers.ESTABLISHED));
            }
            TargetWriter writer = new TargetWriter(ctx, done, down, why -> end(ctx, why));
            fromTarget = writer;
            target.subscribe(writer);
            FluxSink<ByteBuf> sink = toTarget;
            if (sink != null && sink.requestedFromDownstream() > 0 && reading()) {
                ctx.read();
            }
        }
    }
}
