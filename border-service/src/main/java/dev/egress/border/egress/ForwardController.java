package dev.egress.border.egress;

import dev.egress.border.InvalidRequestException;
import dev.egress.border.trust.ClientCertificates;
import dev.egress.discovery.web.forward.BorderPaths;
import dev.egress.discovery.web.forward.ForwardDeadline;
import dev.egress.discovery.web.forward.ForwardFrame;
import dev.egress.discovery.web.forward.ForwardRequest;
import dev.egress.discovery.web.forward.ForwardResponse;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * App's forward call, {@code POST /internal/v1/egress}: Bearer internal token (checked by the filter)
 * and, with trust configured, an App client certificate (checked here, on the matched route). The
 * attempt's deadline travels in the {@value ForwardDeadline#HEADER} header (absent from an older App).
 *
 * <p>Two forms, told apart by {@code Content-Type}: the raw {@value ForwardFrame#MEDIA_TYPE} (App's, the
 * body's bytes after a small JSON head, answered in the same form) and the JSON {@link ForwardRequest}
 * (an older App's, answered with a JSON {@link ForwardResponse}). Any other type is 415, before anything
 * is sent.
 */
@RestController
class ForwardController {

    private final EgressService egress;
    private final ClientCertificates clients;
    private final JsonMapper json;
    private final int maxFrame;

    ForwardController(EgressService egress, ClientCertificates clients, JsonMapper json, LimitsProperties limits) {
        this.egress = egress;
        this.clients = clients;
        this.json = json;
        // The exact cap on the body is EgressService's; this bounds what is read into memory to get there.
        this.maxFrame = (int) Math.min(
                Integer.MAX_VALUE - 8, limits.maxRequestBody().toBytes() + ForwardFrame.MAX_HEAD + Integer.BYTES);
    }

    @PostMapping(
            path = BorderPaths.EGRESS,
            consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<ForwardResponse> forward(@RequestBody ForwardRequest request, ServerWebExchange exchange) {
        return forward(Mono.just(request), exchange).map(Forwarded::json);
    }

    @PostMapping(path = BorderPaths.EGRESS, consumes = ForwardFrame.MEDIA_TYPE, produces = ForwardFrame.MEDIA_TYPE)
    Mono<ByteBuf> forwardRaw(ServerWebExchange exchange) {
        Mono<ForwardRequest> request = DataBufferUtils.join(
                        exchange.getRequest().getBody(), maxFrame)
                .onErrorMap(
                        DataBufferLimitException.class,
                        e -> new PayloadTooLargeException(
                                "the forward frame is over %d bytes (egress.limits.max-request-body and the head)"
                                        .formatted(maxFrame)))
                .map(this::read)
                .switchIfEmpty(Mono.fromSupplier(() -> read(ByteBuffer.allocate(0))));
        return forward(request, exchange).map(answer -> answer.frame(json));
    }

    /**
     * Reads the frame where it lies: the body is copied once, out of the request's buffer into its array.
     * Only a frame the server received in several buffers is first copied whole into one.
     */
    private ForwardRequest read(DataBuffer buffer) {
        try (DataBuffer.ByteBufferIterator views = buffer.readableByteBuffers()) {
            ByteBuffer view = views.hasNext() ? views.next() : ByteBuffer.allocate(0);
            if (views.hasNext()) {
                byte[] whole = new byte[buffer.readableByteCount()];
                buffer.read(whole);
                view = ByteBuffer.wrap(whole);
            }
            return read(view);
        } finally {
            DataBufferUtils.release(buffer);
        }
    }

    private ForwardRequest read(ByteBuffer frame) {
        try {
            return ForwardFrame.readRequest(json, frame);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException("forward frame: " + e.getMessage());
        }
    }

    private Mono<Forwarded> forward(Mono<ForwardRequest> request, ServerWebExchange exchange) {
        clients.requireApp(exchange);
        ForwardDeadline deadline;
        try {
            deadline = ForwardDeadline.parse(exchange.getRequest().getHeaders().getFirst(ForwardDeadline.HEADER));
        } catch (IllegalArgumentException e) {
            return Mono.error(new InvalidRequestException(e.getMessage()));
        }
        return request.flatMap(r -> egress.forward(r, deadline));
    }
}
