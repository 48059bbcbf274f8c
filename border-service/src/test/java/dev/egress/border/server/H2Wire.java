package dev.egress.border.server;

import dev.egress.border.testing.Tokens;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2Exception;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * HTTP/2 spoken frame by frame over a socket the test opened (plain h2c with prior knowledge, or TLS with
 * ALPN h2), so that a test can send what no well-behaved client library would: header blocks cut into
 * trickled CONTINUATIONs, streams reset as fast as they are opened. Header blocks are HPACK-encoded by
 * Netty's encoder (one per connection: HPACK is stateful).
 */
final class H2Wire implements AutoCloseable {

    static final int HEADERS = 0x1;
    static final int RST_STREAM = 0x3;
    static final int SETTINGS = 0x4;
    static final int PING = 0x6;
    static final int GOAWAY = 0x7;
    static final int CONTINUATION = 0x9;
    static final int END_STREAM = 0x1;
    static final int END_HEADERS = 0x4;
    static final int ACK = 0x1;

    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private final Socket socket;
    private final int port;
    private final DefaultHttp2HeadersEncoder hpack = new DefaultHttp2HeadersEncoder();

    /** Sends the preface and an empty SETTINGS frame on a connected socket. */
    H2Wire(Socket socket, int port) throws IOException {
        this.socket = socket;
        this.port = port;
        socket.setSoTimeout(20_000);
        OutputStream out = socket.getOutputStream();
        out.write(PREFACE);
        out.write(frame(SETTINGS, 0, 0, new byte[0]));
        out.flush();
    }

    OutputStream out() throws IOException {
        return socket.getOutputStream();
    }

    /** The HPACK block of {@code GET /ops/v1/ips} with the operator token. */
    byte[] headerBlock(int stream) throws Http2Exception {
        DefaultHttp2Headers headers = new DefaultHttp2Headers();
        headers.method("GET").scheme("http").authority("127.0.0.1:" + port).path("/ops/v1/ips");
        headers.add("authorization", "Bearer " + Tokens.OPERATOR);
        ByteBuf out = Unpooled.buffer();
        try {
            hpack.encodeHeaders(stream, headers, out);
            return ByteBufUtil.getBytes(out);
        } finally {
            out.release();
        }
    }

    /** Streams opened (a complete GET) and at once reset (CANCEL), one after the other. */
    byte[] resetStreams(int count) throws Http2Exception {
        ByteArrayOutputStream frames = new ByteArrayOutputStream();
        int stream = 1;
        for (int i = 0; i < count; i++, stream += 2) {
            frames.writeBytes(frame(HEADERS, END_STREAM | END_HEADERS, stream, headerBlock(stream)));
            frames.writeBytes(frame(RST_STREAM, 0, stream, new byte[] {0, 0, 0, 8}));
        }
        return frames.toByteArray();
    }

    /**
     * Streams opened with a complete GET whose request side stays open (no END_STREAM), one after the other: each
     * holds one of the Border's concurrent streams, so past its limit (100) the Border refuses every further one with
     * a reset of its own (REFUSED_STREAM), as it resets a tunnel's stream whose target closed first.
     */
    byte[] openStreams(int count) throws Http2Exception {
        ByteArrayOutputStream frames = new ByteArrayOutputStream();
        int stream = 1;
        for (int i = 0; i < count; i++, stream += 2) {
            frames.writeBytes(frame(HEADERS, END_HEADERS, stream, headerBlock(stream)));
        }
        return frames.toByteArray();
    }

    /** Writes from another thread while the test reads answers, so that the server never waits for a reader. */
    CompletableFuture<Void> writeInBackground(byte[]... chunks) {
        return CompletableFuture.runAsync(() -> {
            try {
                for (byte[] chunk : chunks) {
                    socket.getOutputStream().write(chunk);
                }
                socket.getOutputStream().flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    static byte[] frame(int type, int flags, int stream, byte[] payload) {
        ByteBuffer frame = ByteBuffer.allocate(9 + payload.length);
        frame.put((byte) (payload.length >>> 16))
                .put((byte) (payload.length >>> 8))
                .put((byte) payload.length);
        frame.put((byte) type).put((byte) flags).putInt(stream).put(payload);
        return frame.array();
    }

    static byte[] ping(String eightBytes) {
        return frame(PING, 0, 0, eightBytes.getBytes(StandardCharsets.US_ASCII));
    }

    /** Reads frames until the server closes; returns the frame types seen; fails if still open after the wait. */
    List<Integer> readUntilClosed(Duration within) throws IOException {
        socket.setSoTimeout((int) within.toMillis());
        List<Integer> types = new ArrayList<>();
        DataInputStream in = new DataInputStream(socket.getInputStream());
        try {
            while (true) {
                types.add(readFrame(in)[0]);
            }
        } catch (EOFException | SocketException closed) {
            return types;
        } catch (SocketTimeoutException stillOpen) {
            throw new AssertionError("the connection was still open after " + within + "; frames seen: " + types);
        }
    }

    /**
     * Reads frames until one of the type arrives (a PING only as an acknowledgement), or GOAWAY, or the end.
     *
     * @return the frames seen, as "type/flags"; ends with "found" when the frame arrived
     */
    List<String> readUntil(int type) throws IOException {
        List<String> seen = new ArrayList<>();
        DataInputStream in = new DataInputStream(socket.getInputStream());
        try {
            while (true) {
                int[] frame = readFrame(in);
                seen.add(frame[0] + "/" + frame[1]);
                if (frame[0] == type && (type != PING || (frame[1] & ACK) != 0)) {
                    seen.add("found");
                    return seen;
                }
                if (frame[0] == GOAWAY) {
                    return seen;
                }
            }
        } catch (EOFException | SocketException closed) {
            seen.add("closed");
            return seen;
        }
    }

    /** One frame: {type, flags}; the payload is skipped. */
    private static int[] readFrame(DataInputStream in) throws IOException {
        int length = (in.readUnsignedByte() << 16) | (in.readUnsignedByte() << 8) | in.readUnsignedByte();
        int type = in.readUnsignedByte();
        int flags = in.readUnsignedByte();
        in.readInt();
        in.readFully(new byte[length]);
        return new int[] {type, flags};
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
