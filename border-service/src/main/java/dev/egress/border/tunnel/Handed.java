package dev.egress.border.tunnel;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * A buffer read from a tunnel's target on its way to App's stream, which tells when the write path let go of it: the
 * HTTP/2 flow controller holds a DATA frame until the stream's and the connection's windows admit it, then TLS and
 * the socket take it, and only then is the buffer released. The splice hands a buffer on only while fewer than
 * {@link TunnelController#IN_WRITE_PATH} earlier ones are unreleased, so what a tunnel holds on the Border is that many
 * buffers in the write path and one waiting, whatever
 * windows App advertises: a stream's writability alone lets through as much as its window and the connection's.
 */
final class Handed extends CompositeByteBuf {

    private final Sinks.Empty<Void> released = Sinks.empty();

    /**
     * Takes over a buffer (its reference becomes this one's).
     *
     * @param buf a buffer read from the target
     */
    Handed(ByteBuf buf) {
        super(buf.alloc(), buf.isDirect(), 1, buf);
    }

    /**
     * Completes once the write path released this buffer (written, or dropped with its stream).
     *
     * @return the release
     */
    Mono<Void> released() {
        return released.asMono();
    }

    @Override
    protected void deallocate() {
        super.deallocate();
        released.tryEmitEmpty();
    }
}
