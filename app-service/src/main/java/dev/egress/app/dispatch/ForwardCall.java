package dev.egress.app.dispatch;

import dev.egress.app.fleet.BorderHandle;
import dev.egress.app.fleet.BorderLink;
import dev.egress.discovery.Route;
import dev.egress.discovery.forward.BorderPaths;
import dev.egress.discovery.forward.ForwardDeadline;
import dev.egress.discovery.forward.ForwardRequest;
import io.netty.buffer.Unpooled;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * One forward call ({@code POST /internal/v1/egress}) over a Border's link, classified into the attempt's
 * result; it never fails. A call to a Border that left the snapshot, or whose endpoint cannot be verified, is
 * refused here without being sent. A call made while the link's PING is in doubt waits for the answer
 * ({@code LinkWatch}), and is not sent at all when the link went silent. Each call carries its attempt's
 * deadline ({@link ForwardDeadline}) and the delivery's trace ({@link TraceHeaders}); the answer is read under
 * {@code egress.dispatch.max-border-answer-size} ({@link BorderAnswer}).
 */
final class ForwardCall {

    private final DispatchProperties properties;
    private final JsonMapper json;
    private final TraceHeaders trace;
    private final int maxAnswerBytes;

    ForwardCall(DispatchProperties properties, JsonMapper json, TraceHeaders trace) {
        this.properties = properties;
        this.json = json;
        this.trace = trace;
        this.maxAnswerBytes = (int)
                Math.min(Integer.MAX_VALUE, properties.maxBorderAnswerSize().toBytes());
    }

    /**
     * Sends one forward request.
     *
     * @param handle   the route's Border as the fleet holds it; null when it left the snapshot
     * @param route    the route (Border and source IP)
     * @param request  the request
     * @param deadline the attempt's deadline, sent to the Border
     * @return the attempt's result
     */
    Mono<AttemptResult> call(
            @Nullable BorderHandle handle, Route route, ForwardRequest request, ForwardDeadline deadline) {
        return Mono.defer(() -> call(handle, route, json.writeValueAsBytes(request), deadline));
    }

    /**
     * Sends one serialised forward request.
     *
     * @param handle   the route's Border as the fleet holds it; null when it left the snapshot
     * @param route    the route (Border and source IP)
     * @param body     the serialised {@link ForwardRequest}
     * @param deadline the attempt's deadline, sent to the Border
     * @return the attempt's result
     */
    Mono<AttemptResult> call(@Nullable BorderHandle handle, Route route, byte[] body, ForwardDeadline deadline) {
        return Mono.defer(() -> {
            long start = System.nanoTime();
            if (handle == null) {
                return Mono.just(left(route));
            }
            if (handle.unverifiable() != null) {
                return Mono.just(
                        AttemptResult.failed(AttemptResult.Kind.BORDER_UNVERIFIED, false, handle.unverifiable(), 0));
            }
            BorderLink link = handle.link();
            if (link == null) {
                return Mono.just(left(route));
            }
            link.started();
            // The doubt ends by the PING timeout at the latest; the bound only guards against a lost signal.
            return link.settled()
                    .timeout(properties.pingTimeout().multipliedBy(2), Mono.just(Boolean.FALSE))
                    .flatMap(alive -> alive
                            ? send(link, body, deadline, start)
                            : Mono.just(CallFailures.silentLink(properties.pingTimeout(), start)))
                    .timeout(properties.attemptTimeout())
                    .onErrorResume(e -> Mono.just(CallFailures.classify(e, CallFailures.millisSince(start))))
                    .doFinally(signal -> link.ended());
        });
    }

    private static AttemptResult left(Route route) {
        return AttemptResult.failed(
                AttemptResult.Kind.BORDER_LEFT, false, "Border " + route.borderId() + " left the snapshot", 0);
    }

    private Mono<AttemptResult> send(BorderLink link, byte[] body, ForwardDeadline deadline, long start) {
        return Mono.deferContextual(context -> {
            Map<String, String> traceHeaders = trace.of(context);
            return link.http()
                    .headers(h -> {
                        h.set(ForwardDeadline.HEADER, deadline.headerValue());
                        traceHeaders.forEach(h::set);
                    })
                    .post()
                    .uri(link.url(BorderPaths.EGRESS))
                    .send(Mono.fromSupplier(() -> Unpooled.wrappedBuffer(body)))
                    .response((response, content) -> BorderAnswer.read(response, content, maxAnswerBytes)
                            .map(bytes -> BorderAnswer.classify(
                                    json, response.status().code(), bytes, CallFailures.millisSince(start))))
                    .next();
        });
    }
}
