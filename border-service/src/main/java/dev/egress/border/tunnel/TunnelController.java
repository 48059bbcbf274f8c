package dev.egress.border.tunnel;

import dev.egress.border.InvalidRequestException;
import dev.egress.border.egress.GateMetrics;
import dev.egress.border.trust.ClientCertificates;
import dev.egress.discovery.forward.ForwardDeadline;
import dev.egress.discovery.forward.TunnelCall;
import io.netty.channel.socket.DuplexChannel;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.Disposable;
import reactor.core.Disposables;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;

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

    private final TunnelService tunnels;
    private final ClientCertificates clients;
    private final GateMetrics metrics;

    TunnelController(TunnelService tunnels, ClientCertificates clients, GateMetrics metrics) {
        this.tunnels = tunnels;
        this.clients = clients;
        this.metrics = metrics;
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
                        deadline)
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
        target.channel().config().setAutoRead(true);
        NettyDataBufferFactory factory =
                new NettyDataBufferFactory(target.channel().alloc());
        Flux<DataBuffer> fromTarget = target.inbound().receive().retain().map(buf -> {
            down.addAndGet(buf.readableBytes());
            return (DataBuffer) factory.wrap(buf);
        });
        Flux<DataBuffer> body =
                Flux.concat(Mono.just(factory.wrap(target.channel().alloc().buffer(0))), fromTarget);
        return response.writeWith(body).doFinally(signal -> {
            handles.dispose();
            target.dispose();
            opened.permit().release();
            metrics.carried(ip, up.get(), down.get());
        });
    }

    private static void shutdownOutput(Connection target) {
        if (target.channel() instanceof DuplexChannel duplex && duplex.isActive()) {
            duplex.shutdownOutput();
        }
    }
}
