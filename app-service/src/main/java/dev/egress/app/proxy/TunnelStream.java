package dev.egress.app.proxy;

import dev.egress.app.attempts.AttemptPolicy;
import dev.egress.app.attempts.AttemptResult;
import dev.egress.app.attempts.BorderAnswer;
import dev.egress.app.attempts.CallFailures;
import dev.egress.app.fleet.BorderHandle;
import dev.egress.app.fleet.BorderLink;
import dev.egress.discovery.registry.Route;
import dev.egress.discovery.web.forward.ForwardDeadline;
import dev.egress.discovery.web.forward.TunnelCall;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import tools.jackson.databind.json.JsonMapper;

/**
 * One tunnel ({@link TunnelCall}) through a Border's link: one HTTP/2 stream on the Border's pooled connection,
 * with the identity checks and the PING watch of a forward ({@code ForwardCall}). The connect phase (until the
 * Border's 200) is bounded by the caller's connect timeout; after it nothing bounds the stream here (the proxy's
 * idle and lifetime limits do). It never fails: a refusal, a failed connect or a broken link is the result; a
 * tunnel that came up ends as {@code DELIVERED} whatever ended it.
 */
final class TunnelStream {

    private final AttemptPolicy policy;
    private final JsonMapper json;

    TunnelStream(AttemptPolicy policy, JsonMapper json) {
        this.policy = policy;
        this.json = json;
    }

    /**
     * Opens a tunnel and runs it until it ends.
     *
     * @param handle         the route's Border as the fleet holds it; null when it left the snapshot
     * @param route          the route (Border and source IP)
     * @param quota          whose budget the tunnel counts against, named to the Border
     *                       ({@value TunnelCall#TENANT_HEADER})
     * @param target         the target
     * @param deadline       the connect's deadline, sent to the Border
     * @param connectTimeout how long to wait for the Border's answer
     * @param fromSender     the sender's bytes for this attempt; subscribed once the tunnel is up
     * @param established    called once with the target's bytes when the Border answered 200; its result ends
     *                       when the tunnel does
     * @return the attempt's result, once refused or once the tunnel ended
     */
    Mono<AttemptResult> open(
            @Nullable BorderHandle handle,
            Route route,
            String quota,
            TunnelCall target,
            ForwardDeadline deadline,
            Duration connectTimeout,
            Flux<ByteBuf> fromSender,
            Function<Flux<ByteBuf>, Mono<Void>> established) {
        return Mono.defer(() -> {
            long start = System.nanoTime();
            if (handle != null && handle.unverifiable() != null) {
                return Mono.just(
                        AttemptResult.failed(AttemptResult.Kind.BORDER_UNVERIFIED, false, handle.unverifiable(), 0));
            }
            BorderLink link = handle == null ? null : handle.link();
            if (link == null) {
                return Mono.just(AttemptResult.failed(
                        AttemptResult.Kind.BORDER_LEFT, false, "Border " + route.borderId() + " left the snapshot", 0));
            }
            link.started();
            AtomicBoolean up = new AtomicBoolean();
            Sinks.Empty<Void> opened = Sinks.empty();
            // An empty first chunk sends the request headers now: the sender writes nothing before it sees 200.
            Flux<ByteBuf> body = Flux.concat(
                    Mono.just(Unpooled.EMPTY_BUFFER), opened.asMono().thenMany(Flux.defer(() -> fromSender)));
            Mono<AttemptResult> call = link.settled(policy.pingTimeout().multipliedBy(2))
                    .flatMap(alive -> !alive
                            ? Mono.just(CallFailures.silentLink(policy.pingTimeout(), start))
                            : send(link, route, quota, target, deadline, body, start, up, opened, established));
            return call.timeout(
                            Mono.delay(connectTimeout).filter(tick -> !up.get()).concatWith(Mono.never()))
                    .onErrorResume(e -> Mono.just(
                            up.get()
                                    ? AttemptResult.delivered(null, CallFailures.millisSince(start))
                                    : CallFailures.classify(e, CallFailures.millisSince(start))))
                    .doFinally(signal -> link.ended());
        });
    }

    private Mono<AttemptResult> send(
            BorderLink link,
            Route route,
            String quota,
            TunnelCall target,
            ForwardDeadline deadline,
            Flux<ByteBuf> body,
            long start,
            AtomicBoolean up,
            Sinks.Empty<Void> opened,
            Function<Flux<ByteBuf>, Mono<Void>> established) {
        return link.http()
                .headers(h -> h.set(ForwardDeadline.HEADER, deadline.headerValue())
                        .set(TunnelCall.SOURCE_IP_HEADER, route.ip().value())
                        .set(TunnelCall.TARGET_HEADER, target.authority())
                        .set(TunnelCall.TENANT_HEADER, quota)
                        .set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_OCTET_STREAM))
                .post()
                .uri(link.url(TunnelCall.PATH))
                .send(body)
                .response((response, content) -> {
                    if (response.status().code() != 200) {
                        return BorderAnswer.read(response, content, policy.maxAnswerBytes())
                                .map(bytes -> BorderAnswer.classify(
                                        json,
                                        response.status().code(),
                                        response.responseHeaders().get(HttpHeaderNames.CONTENT_TYPE),
                                        bytes,
                                        CallFailures.millisSince(start)));
                    }
                    up.set(true);
                    opened.tryEmitEmpty();
                    long latency = CallFailures.millisSince(start);
                    // Retained: Reactor Netty releases each buffer after onNext, the proxy writes it to the
                    // sender's socket later, which releases it.
                    return established
                            .apply(content.retain())
                            .then(Mono.fromSupplier(() -> AttemptResult.delivered(null, latency)));
                })
                .next();
    }
}
