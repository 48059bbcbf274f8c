package dev.egress.border.tunnel;

import dev.egress.border.InvalidRequestException;
import dev.egress.border.egress.GateMetrics;
import dev.egress.border.egress.TunnelProperties;
import dev.egress.border.trust.ClientCertificates;
import dev.egress.discovery.web.forward.ForwardDeadline;
import dev.egress.discovery.web.forward.TunnelCall;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.Disposable;
import reactor.core.Disposables;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;
import reactor.netty.http.server.HttpServerRequest;

/**
 * App's tunnel call, {@code POST /internal/v1/tunnel} ({@link TunnelCall}): the internal token (checked by the
 * filter) and, with trust configured, an App client certificate, as for a forward. Once the target connection is
 * up the answer is 200 with its headers sent at once (an empty first chunk commits them: the sender of a TLS
 * tunnel speaks first and must know the tunnel is up), then bytes are spliced both ways with backpressure: the
 * target is read only as fast as App takes the answer's body, and App's body is written as fast as the target
 * takes it. Either side ending ends the tunnel: the target closing completes the answer, App resetting the
 * stream closes the target connection.
 */
@RestController
class TunnelController {

    private static final Logger log = LoggerFactory.getLogger(TunnelController.class);

    /** Buffers of one tunnel that may be in the write path towards App at once (each {@value TargetReads#CHUNK} B). */
    static final int IN_WRITE_PATH = 4;

    private final TunnelService tunnels;
    private final ClientCertificates clients;
    private final GateMetrics metrics;
    private final TunnelProperties limits;

    TunnelController(TunnelService tunnels, ClientCertificates clients, GateMetrics metrics, TunnelProperties limits) {
        this.tunnels = tunnels;
        this.clients = clients;
        this.metrics = metrics;
        this.limits = limits;
    }

    @PostMapping(path = TunnelCall.PATH, consumes = MediaType.APPLICATION_OCTET_STREAM_VALUE)
    Mono<Void> tunnel(ServerWebExchange exchange) {
        clients.requireApp(exchange);
        StreamTimeouts.lift(exchange.getRequest());
        HttpHeaders headers = exchange.getRequest().getHeaders();
        ForwardDeadline deadline;
        try {
            deadline = ForwardDeadline.parse(headers.getFirst(ForwardDeadline.HEADER));
        } catch (IllegalArgumentException e) {
            return Mono.error(new InvalidRequestException(e.getMessage()));
        }
        return tunnels.open(
                        headers.getFirst(TunnelCall.SOURCE_IP_HEADER),
                        headers.getFirst(TunnelCall.TARGET_HEADER),
                        deadline,
                        headers.getFirst(TunnelCall.TENANT_HEADER))
                .flatMap(opened -> splice(exchange, opened));
    }

    private Mono<Void> splice(ServerWebExchange exchange, TunnelService.Opened opened) {
        ServerHttpRequest request = exchange.getRequest();
        ServerHttpResponse response = exchange.getResponse();
        Connection target = opened.connection();
        String ip = opened.ip().value();
        AtomicLong up = new AtomicLong();
        AtomicLong down = new AtomicLong();
        Disposable.Composite handles = Disposables.composite();
        AtomicReference<String> ended = new AtomicReference<>();
        limit(target, handles, ended);
        // The end of the drain closes a tunnel still open, which App passes on as a closed connection.
        opened.permit().closeAtDrainTimeout(target::dispose);
        response.setStatusCode(HttpStatus.OK);
        response.getHeaders().setContentType(MediaType.APPLICATION_OCTET_STREAM);
        // App -> target. The request body's buffers are ours to release: sending them hands them to Netty.
        handles.add(target.outbound()
                .send(request.getBody().map(buffer -> {
                    up.addAndGet(buffer.readableByteCount());
                    return NettyDataBufferFactory.toByteBuf(buffer);
                }))
                .then()
                .subscribe(
                        null,
                        error -> target.dispose(),
                        // The sender finished writing: half-close towards the target, which may still answer.
                        () -> target.channel().eventLoop().execute(() -> shutdownOutput(target))));
        NettyDataBufferFactory factory =
                new NettyDataBufferFactory(target.channel().alloc());
        Flux<DataBuffer> fromTarget = fromTarget(target, channelOf(request), factory, down, ended);
        Flux<DataBuffer> body =
                Flux.concat(Mono.just(factory.wrap(target.channel().alloc().buffer(0))), fromTarget);
        return response.writeWith(body).doFinally(signal -> {
            // The place first: disposing the splice's subscriptions can throw (Reactor's LambdaMonoSubscriber
            // disposed before its subscription arrived, seen when the target closes at once), and a place not
            // given back is lost for good: enough of them and the IP refuses every tunnel with 429.
            opened.permit().release();
            target.dispose();
            dispose(handles);
            metrics.carried(ip, up.get(), down.get());
            log.debug(
                    "Tunnel from {} to {} ended: {}, up {} down {}",
                    ip,
                    opened.target().authority(),
                    ended.get() == null ? signal : ended.get(),
                    up.get(),
                    down.get());
        });
    }

    /**
     * Target -> App. Back pressure, not buffering: the target is read one {@value TargetReads#CHUNK}-byte buffer at
     * a time ({@link TargetReads}), and a buffer is handed to App's stream only while that stream is writable and
     * fewer than {@value #IN_WRITE_PATH} earlier buffers are still in the write path ({@link Handed}: released when
     * the HTTP/2 flow controller, TLS and the socket let go of it). A tunnel whose App side does not read therefore
     * holds {@value #IN_WRITE_PATH} buffers there and one read, 80 KiB, whatever the target sends and whatever windows
     * App advertises; {@code egress.tunnel.bytes-per-tunnel} (128 KB), reserved when the gate admitted it, covers
     * that. An App side that takes nothing for {@code stall-timeout} ends the tunnel.
     */
    private Flux<DataBuffer> fromTarget(
            Connection target,
            @Nullable Channel toApp,
            NettyDataBufferFactory factory,
            AtomicLong down,
            AtomicReference<String> ended) {
        // The buffers handed on and maybe still in the write path, oldest first: a buffer is handed on only while fewer
        // than IN_WRITE_PATH are unreleased. One at a time halved a bulk download (each 16 KiB waited for the previous
        // one's socket write: 258 -> 173 MB/s through the proxy); a few keep the socket busy inside the reserve.
        Deque<Handed> inWritePath = new ArrayDeque<>();
        return TargetReads.of(target)
                .concatMap(
                        buf -> {
                            // concatMap maps one buffer at a time, after the previous one was handed on: no race here.
                            while (!inWritePath.isEmpty()
                                    && inWritePath.peekFirst().refCnt() == 0) {
                                inWritePath.pollFirst();
                            }
                            Mono<DataBuffer> hand = Mono.fromCallable(() -> {
                                Handed handed = new Handed(buf);
                                inWritePath.addLast(handed);
                                down.addAndGet(handed.readableBytes());
                                return (DataBuffer) factory.wrap((ByteBuf) handed);
                            });
                            if (inWritePath.size() < IN_WRITE_PATH && (toApp == null || toApp.isWritable())) {
                                // Nothing to wait for: no stall timer per buffer (a scheduled task and its
                                // cancel on another thread, for every buffer of a keep-alive exchange).
                                return hand;
                            }
                            Mono<Void> oldest = inWritePath.size() < IN_WRITE_PATH
                                    ? Mono.empty()
                                    : inWritePath.pollFirst().released();
                            return oldest.then(Writability.of(toApp))
                                    .timeout(limits.stallTimeout())
                                    .then(hand)
                                    .onErrorResume(TimeoutException.class, e -> {
                                        buf.release();
                                        ended.compareAndSet(null, "app-stalled");
                                        target.dispose();
                                        return Mono.empty();
                                    });
                        },
                        0)
                .doOnDiscard(ByteBuf.class, ReferenceCountUtil::safeRelease);
    }

    /**
     * The Border's own limits on a tunnel, a backstop for App's: no byte either way for {@code idle-timeout}, or open
     * for {@code max-lifetime}, and the target connection is closed, which ends the tunnel for App too.
     */
    private void limit(Connection target, Disposable.Composite handles, AtomicReference<String> ended) {
        target.addHandlerLast(
                "egress.tunnelIdle",
                new IdleStateHandler(0, 0, limits.idleTimeout().toMillis(), TimeUnit.MILLISECONDS));
        target.addHandlerLast("egress.tunnelIdleClose", new ChannelInboundHandlerAdapter() {
            @Override
            public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
                if (event instanceof IdleStateEvent) {
                    ended.compareAndSet(null, "idle-timeout");
                    ctx.close();
                    return;
                }
                ctx.fireUserEventTriggered(event);
            }
        });
        handles.add(Mono.delay(limits.maxLifetime()).subscribe(tick -> {
            ended.compareAndSet(null, "max-lifetime");
            target.dispose();
        }));
    }

    private static void dispose(Disposable.Composite handles) {
        try {
            handles.dispose();
        } catch (RuntimeException e) {
            log.debug("Disposing a tunnel's splice failed: {}", e.toString());
        }
    }

    /** The channel App's side of the tunnel is written to (its HTTP/2 stream), or null if it is not known. */
    private static @Nullable Channel channelOf(ServerHttpRequest request) {
        Object nativeRequest = ServerHttpRequestDecorator.getNativeRequest(request);
        if (!(nativeRequest instanceof HttpServerRequest http)) {
            return null;
        }
        AtomicReference<Channel> channel = new AtomicReference<>();
        http.withConnection(connection -> channel.set(connection.channel()));
        return channel.get();
    }

    private static void shutdownOutput(Connection target) {
        if (target.channel() instanceof DuplexChannel duplex && duplex.isActive()) {
            duplex.shutdownOutput();
        }
    }
}
