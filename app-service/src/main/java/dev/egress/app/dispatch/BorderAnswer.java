package dev.egress.app.dispatch;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.util.Arrays;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.client.HttpClientResponse;

/**
 * Reads a Border's answer into memory under a cap ({@code egress.dispatch.max-border-answer-size}). The
 * Border caps what it keeps of a target's body, so a larger answer means a Border that is broken or not
 * ours; it fails the attempt as a Border fault instead of growing a buffer without bound. A declared
 * {@code Content-Length} over the cap fails before a byte is read; otherwise reading stops at the cap and
 * the rest of the answer is cancelled. Chunks are copied once, into an array sized by the declared
 * length when there is one.
 */
final class BorderAnswer {

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
    static Mono<byte[]> read(HttpClientResponse response, ByteBufFlux content, int cap) {
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
    static final class TooLargeException extends RuntimeException {
        TooLargeException(int cap) {
            super(
                    "the Border's answer is larger than egress.dispatch.max-border-answer-size (%d bytes)"
                            .formatted(cap),
                    null,
                    false,
                    false);
        }
    }
}
