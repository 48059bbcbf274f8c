package dev.egress.app.proxy;

import dev.egress.discovery.web.forward.TargetAuthority;
import dev.egress.discovery.web.forward.TunnelCall;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * An absolute-form {@code http://host[:port]/path} request, carried through a tunnel like a CONNECT's bytes (not
 * the delivery path, which caps and re-encodes answers): the request line rewritten to origin-form, hop-by-hop
 * headers dropped (RFC 9110 section 7.6.1, and {@code Proxy-Authorization} so the token never reaches the
 * target), {@code Connection: close} added, the body's bytes passed on unchanged (a chunked body re-framed in
 * chunks of the same bytes). The target's answer comes back raw; one request per proxy connection, because the
 * target closes after it and so does the proxy. Whatever the sender writes after its request's end is dropped, so
 * a pipelined second request (with its own {@code Proxy-Authorization}) never reaches the target.
 */
final class OriginRequest {

    private static final String SCHEME = "http://";
    private static final Set<String> HOP_BY_HOP =
            Set.of("proxy-authorization", "proxy-connection", "connection", "keep-alive", "te", "trailer", "upgrade");

    private final HttpRequest request;
    private final TunnelCall target;
    private final String authority;
    private final String originForm;
    private final boolean chunked;
    private boolean finished;

    private OriginRequest(HttpRequest request, TunnelCall target, String authority, String originForm) {
        this.request = request;
        this.target = target;
        this.authority = authority;
        this.originForm = originForm;
        this.chunked = HttpUtil.isTransferEncodingChunked(request);
    }

    /**
     * Reads an absolute-form request's target.
     *
     * @param request the request head; its URI starts with {@code http://}
     * @return the request
     * @throws IllegalArgumentException when the URI names no host, carries user info or a bad port
     */
    static OriginRequest of(HttpRequest request) {
        String uri = request.uri();
        if (!uri.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
            throw new IllegalArgumentException("'%s' (expected: http://host[:port]/path)".formatted(uri));
        }
        int end = SCHEME.length();
        while (end < uri.length() && "/?#".indexOf(uri.charAt(end)) < 0) {
            end++;
        }
        String authority = uri.substring(SCHEME.length(), end);
        if (authority.isEmpty() || authority.indexOf('@') >= 0) {
            throw new IllegalArgumentException(
                    "'%s' (expected: http://host[:port]/path, without user info)".formatted(uri));
        }
        int fragment = uri.indexOf('#', end);
        String rest = uri.substring(end, fragment < 0 ? uri.length() : fragment);
        String originForm = rest.isEmpty() ? "/" : rest.startsWith("?") ? "/" + rest : rest;
        TunnelCall target = TargetAuthority.parse(authority, 80);
        return new OriginRequest(request, target, authority, originForm);
    }

    /** Where the tunnel goes. */
    TunnelCall target() {
        return target;
    }

    /** Whether the request's last byte has been passed on: anything after it is dropped. */
    boolean finished() {
        return finished;
    }

    /**
     * The head as the target reads it: origin-form request line, end-to-end headers as sent (bytes unchanged:
     * Netty decodes header bytes one char per byte), a {@code Host} when the sender sent none, and
     * {@code Connection: close}.
     *
     * @param alloc the connection's allocator
     * @return the head's bytes
     */
    ByteBuf head(ByteBufAllocator alloc) {
        Set<String> dropped = new HashSet<>(HOP_BY_HOP);
        for (String value : request.headers().getAll(HttpHeaderNames.CONNECTION)) {
            for (String name : value.split(",")) {
                dropped.add(name.strip().toLowerCase(Locale.ROOT));
            }
        }
        StringBuilder head = new StringBuilder(512)
                .append(request.method().name())
                .append(' ')
                .append(originForm)
                .append(' ')
                .append(request.protocolVersion().text())
                .append("\r\n");
        if (!request.headers().contains(HttpHeaderNames.HOST)) {
            head.append("Host: ").append(authority).append("\r\n");
        }
        for (Map.Entry<String, String> header : request.headers()) {
            if (!dropped.contains(header.getKey().toLowerCase(Locale.ROOT))) {
                head.append(header.getKey())
                        .append(": ")
                        .append(header.getValue())
                        .append("\r\n");
            }
        }
        head.append("Connection: close\r\n\r\n");
        return alloc.buffer(head.length()).writeBytes(head.toString().getBytes(StandardCharsets.ISO_8859_1));
    }

    /**
     * A piece of the body as it goes to the target. The caller still owns (and releases) {@code content}.
     *
     * @param alloc   the connection's allocator
     * @param content the decoder's piece of the body
     * @return the bytes to send, or null when there are none (an empty piece, or anything after the end)
     */
    @Nullable
    ByteBuf body(ByteBufAllocator alloc, HttpContent content) {
        if (finished) {
            return null;
        }
        boolean last = content instanceof LastHttpContent;
        finished = last;
        ByteBuf data = content.content();
        if (!chunked) {
            return data.isReadable() ? data.retainedDuplicate() : null;
        }
        ByteBuf out = alloc.buffer(data.readableBytes() + 16);
        if (data.isReadable()) {
            out.writeCharSequence(Integer.toHexString(data.readableBytes()) + "\r\n", StandardCharsets.US_ASCII);
            out.writeBytes(data, data.readerIndex(), data.readableBytes());
            out.writeCharSequence("\r\n", StandardCharsets.US_ASCII);
        }
        if (last) {
            StringBuilder trailer = new StringBuilder("0\r\n");
            for (Map.Entry<String, String> header : ((LastHttpContent) content).trailingHeaders()) {
                trailer.append(header.getKey())
                        .append(": ")
                        .append(header.getValue())
                        .append("\r\n");
            }
            out.writeCharSequence(trailer.append("\r\n"), StandardCharsets.ISO_8859_1);
        }
        return out;
    }
}
