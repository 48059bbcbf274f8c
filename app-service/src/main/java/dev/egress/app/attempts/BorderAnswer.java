package dev.egress.app.attempts;

import dev.egress.discovery.web.forward.BorderProblem;
import dev.egress.discovery.web.forward.ForwardFrame;
import dev.egress.discovery.web.forward.ForwardResponse;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.client.HttpClientResponse;
import tools.jackson.databind.json.JsonMapper;

/**
 * A Border's answer: read into memory under a cap ({@code egress.dispatch.max-border-answer-size}), then
 * classified into the attempt's result. The Border caps what it keeps of a target's body, so a larger
 * answer means a Border that is broken or not ours; it fails the attempt as a Border fault instead of growing a buffer without bound. A declared
 * {@code Content-Length} over the cap fails before a byte is read; otherwise reading stops at the cap and
 * the rest of the answer is cancelled. Chunks are copied once, into an array sized by the declared
 * length when there is one.
 */
public final class BorderAnswer {

    private static final int FIRST_CHUNK = 8192;

    private final int cap;
    private byte[] bytes;
    private int size;

    private BorderAnswer(int cap, int expected) {
        this.cap = cap;
        this.bytes = new byte[expected];
    }

    /**
     * The answer's body, whole.
     *
     * @param response the Border's response (its headers)
     * @param content  its body
     * @param cap      the most bytes accepted
     * @return the bytes, or an error carrying {@link TooLargeException}
     */
    public static Mono<byte[]> read(HttpClientResponse response, ByteBufFlux content, int cap) {
        long declared = declaredLength(response);
        if (declared > cap) {
            return Mono.error(new TooLargeException(cap));
        }
        int expected = declared >= 0 ? (int) declared : Math.min(cap, FIRST_CHUNK);
        return content.reduceWith(() -> new BorderAnswer(cap, expected), BorderAnswer::append)
                .map(BorderAnswer::toBytes)
                .defaultIfEmpty(new byte[0]);
    }

    private static long declaredLength(HttpClientResponse response) {
        String length = response.responseHeaders().get(HttpHeaderNames.CONTENT_LENGTH);
        if (length == null) {
            return -1;
        }
        try {
            return Long.parseLong(length.trim());
        } catch (NumberFormatException e) {
            return -1; // Netty's decoder refuses a malformed length before this is reached
        }
    }

    private BorderAnswer append(ByteBuf chunk) {
        int length = chunk.readableBytes();
        if (length > cap - size) {
            throw new TooLargeException(cap);
        }
        if (size + length > bytes.length) {
            bytes = Arrays.copyOf(bytes, (int) Math.min(cap, Math.max(size + length, 2L * bytes.length)));
        }
        chunk.readBytes(bytes, size, length);
        size += length;
        return this;
    }

    private byte[] toBytes() {
        return size == bytes.length ? bytes : Arrays.copyOf(bytes, size);
    }

    /** The Border's answer exceeded the cap; hot-path exception, no stack trace. */
    public static final class TooLargeException extends RuntimeException {
        TooLargeException(int cap) {
            super(
                    "the Border's answer is larger than egress.dispatch.max-border-answer-size (%d bytes)"
                            .formatted(cap),
                    null,
                    false,
                    false);
        }
    }

    /**
     * What a Border's answer means for the attempt: a delivery (200 with a {@code ForwardResponse}), or the
     * Border's problem with its slug, reason and {@code targetContacted} (absent: contacted, never resent).
     *
     * @param json        the mapper
     * @param status      the Border's HTTP status
     * @param contentType the answer's {@code Content-Type}: the raw {@link ForwardFrame} or JSON
     * @param bytes       the answer's body, read under the cap
     * @param latencyMs   the attempt's time
     * @return the attempt's result
     */
    public static AttemptResult classify(
            JsonMapper json, int status, @Nullable String contentType, byte[] bytes, long latencyMs) {
        if (status == 200) {
            try {
                ForwardResponse answer = contentType != null && contentType.startsWith(ForwardFrame.MEDIA_TYPE)
                        ? ForwardFrame.readResponse(json, bytes)
                        : json.readValue(bytes, ForwardResponse.class);
                return AttemptResult.delivered(answer, latencyMs);
            } catch (RuntimeException e) {
                return AttemptResult.failed(
                        AttemptResult.Kind.BORDER_ERROR, true, "unreadable Border response", latencyMs);
            }
        }
        // Without an explicit targetContacted=false the request may have reached the target: never resend.
        BorderProblem problem = BorderProblem.read(json, bytes)
                .orElseGet(() -> new BorderProblem(
                        null, null, "Border answered %d without a problem body".formatted(status), true));
        return new AttemptResult(
                AttemptResult.Kind.BORDER_PROBLEM,
                status,
                problem.slug(),
                problem.targetContacted(),
                problem.reason(),
                problem.detail(),
                null,
                latencyMs);
    }
}
