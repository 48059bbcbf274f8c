package dev.egress.app.attempts;

import dev.egress.app.fleet.BorderHandle;
import dev.egress.app.fleet.BorderLink;
import dev.egress.discovery.registry.Route;
import dev.egress.discovery.web.forward.BorderPaths;
import dev.egress.discovery.web.forward.ForwardDeadline;
import dev.egress.discovery.web.forward.ForwardFrame;
import dev.egress.discovery.web.forward.ForwardRequest;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * One forward call ({@code POST /internal/v1/egress}, raw form: {@link ForwardFrame}) over a Border's link, classified into the attempt's
 * result; it never fails. A call to a Border that left the snapshot, or whose endpoint cannot be verified, is
 * refused here without being sent. A call made while the link's PING is in doubt waits for the answer
 * ({@code LinkWatch}), and is not sent at all when the link went silent. Each call carries its attempt's
 * deadline ({@link ForwardDeadline}) and the delivery's trace ({@link TraceHeaders}); the answer is read under
 * {@code egress.dispatch.max-border-answer-size} ({@link BorderAnswer}).
 */
public final class ForwardCall {

    /** A Border's 415 to the raw form: the attempt goes again in the JSON form. Never leaves this class. */
    private static final AttemptResult RAW_REFUSED =
            AttemptResult.failed(AttemptResult.Kind.BORDER_ERROR, true, "the raw form was refused with 415", 0);

    private final AttemptPolicy policy;
    private final JsonMapper json;
    private final TraceHeaders trace;

    private ForwardCall(AttemptPolicy policy, JsonMapper json, TraceHeaders trace) {
        this.policy = policy;
        this.json = json;
        this.trace = trace;
    }

    /**
     * Forward calls under a policy's limits (attempt timeout, PING wait, answer size).
     *
     * @param policy the limits
     * @param json   the mapper of the contract's JSON
     * @param trace  the trace headers each call carries
     * @return the calls
     */
    public static ForwardCall of(AttemptPolicy policy, JsonMapper json, TraceHeaders trace) {
        return new ForwardCall(policy, json, trace);
    }

    /**
     * Sends one forward request in the raw form ({@link ForwardFrame}: the body's bytes after a small JSON
     * head, not copied), or in the JSON form to a Border too old for the raw one.
     *
     * @param handle   the route's Border as the fleet holds it; null when it left the snapshot
     * @param route    the route (Border and source IP)
     * @param request  the request
     * @param deadline the attempt's deadline, sent to the Border
     * @return the attempt's result
     */
    public Mono<AttemptResult> call(
            @Nullable BorderHandle handle, Route route, ForwardRequest request, ForwardDeadline deadline) {
        return attempt(handle, route, (link, start) -> sendRaw(link, request, deadline, start));
    }

    /**
     * Sends one forward request already serialised in the JSON form.
     *
     * @param handle   the route's Border as the fleet holds it; null when it left the snapshot
     * @param route    the route (Border and source IP)
     * @param body     the serialised {@link ForwardRequest}
     * @param deadline the attempt's deadline, sent to the Border
     * @return the attempt's result
     */
    public Mono<AttemptResult> call(@Nullable BorderHandle handle, Route route, byte[] body, ForwardDeadline deadline) {
        return attempt(handle, route, (link, start) -> send(link, Form.JSON, body, null, deadline, start));
    }

    /** One exchange with the Border on a link that is alive. */
    private interface Exchange {
        Mono<AttemptResult> on(BorderLink link, long start);
    }

    private Mono<AttemptResult> attempt(@Nullable BorderHandle handle, Route route, Exchange exchange) {
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
            return link.settled(policy.pingTimeout().multipliedBy(2))
                    .flatMap(alive -> alive
                            ? exchange.on(link, start)
                            : Mono.just(CallFailures.silentLink(policy.pingTimeout(), start)))
                    .timeout(policy.attemptTimeout())
                    .onErrorResume(e -> Mono.just(CallFailures.classify(e, CallFailures.millisSince(start))))
                    .doFinally(signal -> link.ended());
        });
    }

    private static AttemptResult left(Route route) {
        return AttemptResult.failed(
                AttemptResult.Kind.BORDER_LEFT, false, "Border " + route.borderId() + " left the snapshot", 0);
    }

    /**
     * The raw form first. A Border older than it answers 415 from its content negotiation, before its
     * controller, so nothing went to the target: the same attempt then goes again in the JSON form.
     */
    private Mono<AttemptResult> sendRaw(BorderLink link, ForwardRequest request, ForwardDeadline deadline, long start) {
        byte[] head = ForwardFrame.requestHead(json, request);
        return send(link, Form.RAW, head, request.body(), deadline, start)
                .flatMap(result -> result == RAW_REFUSED
                        ? send(link, Form.JSON, json.writeValueAsBytes(request), null, deadline, start)
                        : Mono.just(result));
    }

    private Mono<AttemptResult> send(
            BorderLink link, Form form, byte[] first, byte @Nullable [] body, ForwardDeadline deadline, long start) {
        return Mono.deferContextual(context -> {
            Map<String, String> traceHeaders = trace.of(context);
            return link.http()
                    .headers(h -> {
                        h.set(HttpHeaderNames.CONTENT_TYPE, form.contentType);
                        h.set(HttpHeaderNames.ACCEPT, form.accept);
                        h.set(ForwardDeadline.HEADER, deadline.headerValue());
                        traceHeaders.forEach(h::set);
                    })
                    .post()
                    .uri(link.url(BorderPaths.EGRESS))
                    // The body's array is wrapped, not copied: the head and the caller's bytes go out as one message.
                    .send(Mono.fromSupplier(() -> body == null || body.length == 0
                            ? Unpooled.wrappedBuffer(first)
                            : Unpooled.wrappedBuffer(first, body)))
                    .response((response, content) -> {
                        int status = response.status().code();
                        if (form == Form.RAW && status == 415) {
                            return content.then(Mono.just(RAW_REFUSED));
                        }
                        return BorderAnswer.read(response, content, policy.maxAnswerBytes())
                                .map(bytes -> BorderAnswer.classify(
                                        json,
                                        status,
                                        response.responseHeaders().get(HttpHeaderNames.CONTENT_TYPE),
                                        bytes,
                                        CallFailures.millisSince(start)));
                    })
                    .next();
        });
    }

    /** The two forms of the forward call, by what App sends and what it accepts back. */
    private enum Form {
        RAW(ForwardFrame.MEDIA_TYPE, ForwardFrame.MEDIA_TYPE + ", application/problem+json"),
        JSON("application/json", "application/json, application/problem+json");

        final String contentType;
        final String accept;

        Form(String contentType, String accept) {
            this.contentType = contentType;
            this.accept = accept;
        }
    }
}
