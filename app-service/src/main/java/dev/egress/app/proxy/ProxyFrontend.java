package dev.egress.app.proxy;

import dev.egress.app.dispatch.TunnelDispatcher;
import dev.egress.app.routing.Resolution;
import dev.egress.discovery.Route;
import dev.egress.discovery.forward.TunnelCall;
import dev.egress.discovery.problem.Problem;
import dev.egress.discovery.problem.ProblemException;
import dev.egress.discovery.problem.ProblemType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.ReferenceCountUtil;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Locale;
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
 * One sender connection. First the request head, decoded by Netty's HTTP/1.1 codec; a CONNECT is checked
 * (authority, port allowlist, credentials, tenant, limits: each refusal a problem+json answer that closes the
 * connection), the codec leaves the pipeline, and the tunnel is asked for through {@link TunnelDispatcher}. Once a
 * Border has it up, the sender gets {@code 200 Connection established} and bytes are spliced with backpressure
 * both ways, the Netty way: the sender's socket is read only when the tunnel's stream asks for more (auto-read
 * off), and the next byte from the target is asked for only when the previous write reached the sender's socket.
 * Either side ending closes the other; the idle timeout and the maximum lifetime close both. Everything that
 * touches the connection runs on its event loop.
 */
final class ProxyFrontend extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(ProxyFrontend.class);
    private static final int MAX_EARLY_BYTES = 64 * 1024;

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

    ProxyFrontend(ProxyContext context) {
        this.context = context;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        Duration headTimeout = context.properties().requestHeaderTimeout();
        ctx.executor()
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
                        connect(ctx, request);
                    }
                } finally {
                    ReferenceCountUtil.release(msg);
                }
            }
            case CONNECTING -> early(ctx, msg);
            case TUNNEL -> {
                FluxSink<ByteBuf> sink = toTarget;
                if (sink != null && msg instanceof ByteBuf bytes) {
                    up.addAndGet(bytes.readableBytes());
                    sink.next(bytes);
                } else {
                    early(ctx, msg);
                }
            }
            case CLOSED -> ReferenceCountUtil.release(msg);
        }
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
        if (state == State.TUNNEL && sink != null && sink.requestedFromDownstream() > 0) {
            ctx.read();
        }
    }

    private void head(ChannelHandlerContext ctx, HttpRequest request) {
        ctx.channel().config().setAutoRead(false);
        if (request.decoderResult().isFailure()) {
            refuse(ctx, ProxyAnswers.malformed("the request head is not valid HTTP/1.1"), "unknown");
            return;
        }
        if (!HttpMethod.CONNECT.equals(request.method())) {
            String uri = request.uri().toLowerCase(Locale.ROOT);
            refuse(
                    ctx,
                    ProxyAnswers.malformed(
                            uri.startsWith("https://")
                                    ? "https:// through the proxy: use CONNECT (curl -p, or an https:// target URL)"
                                    : uri.startsWith("http://")
                                            ? "absolute-form http:// requests are not served yet: use CONNECT (curl -p)"
                                            : "not a proxy request (expected: CONNECT host:port)"),
                    "unknown");
            return;
        }
        connect = request;
        ctx.read();
    }

    private void connect(ChannelHandlerContext ctx, HttpRequest request) {
        TunnelCall target;
        try {
            target = TunnelCall.parse(request.uri());
        } catch (IllegalArgumentException e) {
            refuse(ctx, ProxyAnswers.malformed("CONNECT " + e.getMessage()), "unknown");
            return;
        }
        if (!context.properties().allows(target.port())) {
            refuse(
                    ctx,
                    Problem.of(
                                    ProblemType.TARGET_DENIED,
                                    "port %d is not in egress.proxy.allowed-ports".formatted(target.port()))
                            .withReason(ProxyAnswers.PORT_NOT_ALLOWED),
                    "unknown");
            return;
        }
        String tenant;
        Resolution resolution;
        try {
            ProxyAuthenticator.Sender sender = context.authenticator()
                    .authenticate(request.headers().get(HttpHeaderNames.PROXY_AUTHORIZATION), target);
            if (sender.tenantId() == null) {
                throw new ProxyAuthenticator.Refused(ProxyAnswers.authenticationRequired(
                        "no tenant claims %s: name the tenant as the proxy user".formatted(target.authority())));
            }
            tenant = sender.tenantId();
            resolution = context.dispatcher().resolve(tenant);
        } catch (ProxyAuthenticator.Refused e) {
            refuse(ctx, e.problem(), "unknown");
            return;
        } catch (ProblemException e) {
            refuse(ctx, e.problem(), "unknown");
            return;
        }
        open(ctx, tenant, resolution, target);
    }

    private void open(ChannelHandlerContext ctx, String tenant, Resolution resolution, TunnelCall target) {
        if (!context.limits().tryTenant(tenant)) {
            refuse(
                    ctx,
                    Problem.of(
                                    ProblemType.TOO_MANY_TUNNELS,
                                    "tenant '%s' has %d tunnels open (egress.proxy.max-tunnels-per-tenant)"
                                            .formatted(
                                                    tenant, context.properties().maxTunnelsPerTenant()))
                            .withRetryAfter(Duration.ofSeconds(1)),
                    resolution.tenantClass());
            return;
        }
        state = State.CONNECTING;
        ctx.pipeline().remove(DECODER);
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
        Problem problem = error instanceof ProblemException p
                ? p.problem()
                : Problem.of(ProblemType.INTERNAL, "the tunnel could not be opened");
        if (!(error instanceof ProblemException)) {
            log.warn("Unexpected failure opening a tunnel", error);
        }
        refuse(ctx, problem, tenantClass);
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
            if (state == State.TUNNEL) {
                ctx.read();
            }
        }));
    }

    private void refuse(ChannelHandlerContext ctx, Problem problem, String tenantClass) {
        context.metrics().refused(outcomeOf(problem), tenantClass);
        state = State.CLOSED;
        if (ctx.channel().isActive()) {
            ctx.writeAndFlush(ProxyAnswers.encode(ctx.alloc(), problem)).addListener(ChannelFutureListener.CLOSE);
        }
    }

    private static String outcomeOf(Problem problem) {
        return problem.reason() != null ? problem.reason().code() : problem.slug();
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
        early.forEach(ReferenceCountUtil::release);
        early.clear();
        ctx.fireChannelInactive();
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
            ctx.executor()
                    .schedule(
                            () -> end(ctx, "max-lifetime"),
                            properties.maxLifetime().toMillis(),
                            TimeUnit.MILLISECONDS);
            ctx.writeAndFlush(Unpooled.wrappedBuffer(ProxyAnswers.ESTABLISHED));
            TargetWriter writer = new TargetWriter(ctx, done, down, why -> end(ctx, why));
            fromTarget = writer;
            target.subscribe(writer);
            FluxSink<ByteBuf> sink = toTarget;
            if (sink != null && sink.requestedFromDownstream() > 0) {
                ctx.read();
            }
        }
    }
}
