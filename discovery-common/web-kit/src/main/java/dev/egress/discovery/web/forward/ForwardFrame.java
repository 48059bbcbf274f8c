package dev.egress.discovery.web.forward;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The forward call's raw form ({@value #MEDIA_TYPE}), for the request and for the Border's 200 answer: a
 * 4-byte big-endian length, a small JSON head of that many bytes (everything but the body), then the body's
 * bytes as they are, up to the end of the message. The JSON form carries the body in base64 inside the
 * JSON: App encoded it, the Border decoded it, and the answer's body went through JSON twice more; this form
 * sends the caller's bytes (and the target's) without touching them, so no body is encoded, escaped or
 * parsed on the way, and App can hand the body to the connection without copying it.
 *
 * <p>The request's head is a {@link ForwardRequest} without its body and a flag for "no body at all"
 * (a {@code GET} without a body is not a {@code GET} with an empty one). The answer's head is a
 * {@link ForwardResponse} without its body; the body is the target's bytes as the Border kept them, read as
 * UTF-8 by App (a multi-byte character cut by the Border's cap becomes U+FFFD, as before).
 *
 * <p>Both forms stay: a Border accepts the JSON form from an older App, and App falls back to it when an
 * older Border refuses this one with 415 (nothing was sent to the target then).
 */
public final class ForwardFrame {

    /** The content type of both directions of the raw form. */
    public static final String MEDIA_TYPE = "application/vnd.egress.forward";

    /** The largest head accepted (a request's 64 headers of up to 8 KiB each fit with room to spare). */
    public static final int MAX_HEAD = 1 << 20;

    private static final int PREFIX = Integer.BYTES;

    /**
     * The request's head on the wire.
     *
     * @param deliveryId App's delivery id
     * @param sourceIp   the dedicated IP
     * @param url        the target URL
     * @param method     HTTP method
     * @param headers    request headers for the target
     * @param body       whether a body follows (possibly empty); false: no body at all
     */
    @JsonIgnoreProperties(ignoreUnknown = true) // a newer App's extra fields are not an error
    record RequestHead(
            String deliveryId,
            String sourceIp,
            String url,
            String method,
            @Nullable Map<String, String> headers,
            boolean body) {}

    private ForwardFrame() {}

    /**
     * The prefix and head of a request's frame; the body's bytes ({@link ForwardRequest#body()}, when not
     * null) follow it unchanged, so a caller sends the two as one composite message without copying the body.
     *
     * @param json    the mapper
     * @param request the request
     * @return the length prefix and the head
     */
    public static byte[] requestHead(JsonMapper json, ForwardRequest request) {
        return prefixed(json.writeValueAsBytes(new RequestHead(
                request.deliveryId(),
                request.sourceIp(),
                request.url(),
                request.method(),
                request.headers(),
                request.body() != null)));
    }

    /**
     * Reads a request's frame.
     *
     * @param json  the mapper
     * @param frame the whole message, positioned at its start; read to its end
     * @return the request, its body a fresh array (null when the head says there is none)
     * @throws IllegalArgumentException if the frame is cut short, its head is too long or not a request head,
     *                                  or it has body bytes after a head that says there are none
     */
    public static ForwardRequest readRequest(JsonMapper json, ByteBuffer frame) {
        RequestHead head = readHead(json, frame, RequestHead.class);
        if (!head.body() && frame.hasRemaining()) {
            throw new IllegalArgumentException(
                    "%d body bytes after a head without a body".formatted(frame.remaining()));
        }
        byte[] body = null;
        if (head.body()) {
            body = new byte[frame.remaining()];
            frame.get(body);
        }
        return new ForwardRequest(head.deliveryId(), head.sourceIp(), head.url(), head.method(), head.headers(), body);
    }

    /**
     * The prefix and head of an answer's frame; the target's body bytes follow it unchanged.
     *
     * @param json   the mapper
     * @param answer the answer; its {@link ForwardResponse#body()} is left out (the bytes follow the head)
     * @return the length prefix and the head
     */
    public static byte[] responseHead(JsonMapper json, ForwardResponse answer) {
        return prefixed(json.writeValueAsBytes(new ForwardResponse(
                answer.deliveryId(),
                answer.sourceIp(),
                answer.borderId(),
                answer.status(),
                answer.headers(),
                "",
                answer.bodyTruncated(),
                answer.latencyMs())));
    }

    /**
     * Reads an answer's frame.
     *
     * @param json  the mapper
     * @param frame the whole message
     * @return the answer, its body the bytes after the head read as UTF-8 (empty when there are none)
     * @throws IllegalArgumentException if the frame is cut short or its head is too long or unreadable
     */
    public static ForwardResponse readResponse(JsonMapper json, byte[] frame) {
        ByteBuffer buffer = ByteBuffer.wrap(frame);
        ForwardResponse head = readHead(json, buffer, ForwardResponse.class);
        String body = new String(frame, buffer.position(), buffer.remaining(), StandardCharsets.UTF_8);
        return new ForwardResponse(
                head.deliveryId(),
                head.sourceIp(),
                head.borderId(),
                head.status(),
                head.headers(),
                body,
                head.bodyTruncated(),
                head.latencyMs());
    }

    private static byte[] prefixed(byte[] head) {
        byte[] out = new byte[PREFIX + head.length];
        ByteBuffer.wrap(out).putInt(head.length).put(head);
        return out;
    }

    private static <T> T readHead(JsonMapper json, ByteBuffer frame, Class<T> type) {
        if (frame.remaining() < PREFIX) {
            throw new IllegalArgumentException(
                    "a frame of %d bytes (expected: a 4-byte head length first)".formatted(frame.remaining()));
        }
        int length = frame.getInt();
        if (length < 0 || length > MAX_HEAD) {
            throw new IllegalArgumentException(
                    "a head of %d bytes (expected: 0..%d)".formatted(Integer.toUnsignedLong(length), MAX_HEAD));
        }
        if (length > frame.remaining()) {
            throw new IllegalArgumentException(
                    "a head of %d bytes in %d remaining (the frame is cut short)".formatted(length, frame.remaining()));
        }
        T head;
        try {
            if (frame.hasArray()) {
                head = json.readValue(frame.array(), frame.arrayOffset() + frame.position(), length, type);
            } else {
                byte[] bytes = new byte[length];
                frame.duplicate().get(bytes);
                head = json.readValue(bytes, type);
            }
        } catch (JacksonException e) {
            throw new IllegalArgumentException("unreadable head: " + e.getOriginalMessage(), e);
        }
        if (head == null) {
            throw new IllegalArgumentException("the head is JSON null (expected: an object)");
        }
        frame.position(frame.position() + length);
        return head;
    }
}
