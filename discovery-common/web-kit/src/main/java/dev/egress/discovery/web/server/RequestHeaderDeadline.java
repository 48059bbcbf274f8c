package dev.egress.discovery.web.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.LastHttpContent;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Closes an HTTP/1.1 connection whose client does not deliver a request's complete headers within a
 * deadline. An idle timeout alone does not stop a client that sends one header byte every few seconds:
 * each byte resets it, and the header limit (8 KB) is hours away. The clock starts at the first byte of
 * a request (or, installed {@linkplain #installFromOpening from the opening}, when the connection opens
 * for its first request), and stops when the HTTP codec has decoded the request line and headers.
 *
 * <p>Two handlers share one instance per connection: one in front of the codec sees raw bytes (start),
 * one behind it sees the decoded request (stop) and the end of each response (wait for the next request,
 * which the listener's idle timeout bounds). Everything runs on the connection's event loop.
 *
 * <p>Both services install it on their listening port; they differ only in when the first request's
 * clock starts: the App's at the connection's opening (a connection that never sends is closed too),
 * the Border's at its first byte (its own idle timeout handles silent connections).
 */
public final class RequestHeaderDeadline {

    /** Pipeline name of the raw-bytes handler, in front of the codec. */
    private static final String RAW = "egress.requestHeaderDeadline.raw";
    /** Pipeline name of the decoded-request handler, behind the codec. */
    private static final String DECODED = "egress.requestHeaderDeadline.decoded";

    private final Channel channel;
    private final long timeoutNanos;
    private final Runnable onTimeout;
    private ScheduledFuture<?> timer;
    // Requests decoded and not yet answered (more than one when a client pipelines).
    private int unanswered;

    private RequestHeaderDeadline(Channel channel, Duration timeout, Runnable onTimeout) {
        this.channel = channel;
        this.timeoutNanos = timeout.toNanos();
        this.onTimeout = onTimeout;
    }

    /**
     * Installs the deadline on a new server connection, the first request's clock starting at once: a
     * connection that never sends is closed too. Called while the channel is initialised, after Reactor
     * Netty has added its HTTP codec; a pipeline without the HTTP/1.1 codec is left alone.
     *
     * @param channel   the accepted connection
     * @param timeout   the deadline
     * @param onTimeout called (on the event loop) before a connection is closed for missing it
     */
    public static void installFromOpening(Channel channel, Duration timeout, Runnable onTimeout) {
        RequestHeaderDeadline deadline = install(channel, timeout, onTimeout);
        if (deadline != null) {
            channel.eventLoop().execute(deadline::start);
        }
    }

    /**
     * Installs the deadline on a new server connection, every request's clock (the first one's too)
     * starting at its first byte; a connection that sends nothing is left to the idle timeout. Called
     * while the channel is initialised, after Reactor Netty has added its HTTP codec; a pipeline without
     * the HTTP/1.1 codec is left alone.
     *
     * @param channel   the accepted connection
     * @param timeout   the deadline
     * @param onTimeout called (on the event loop) before a connection is closed for missing it
     */
    public static void installFromFirstByte(Channel channel, Duration timeout, Runnable onTimeout) {
        install(channel, timeout, onTimeout);
    }

    /**
     * As {@link #installFromFirstByte}, for a pipeline whose HTTP/1.1 decoder may appear late or unnamed: next
     * to h2c the cleartext upgrade handler adds it without Reactor Netty's name, and behind TLS with ALPN it
     * appears only once the handshake chose HTTP/1.1. HTTP/2 connections have no such decoder and get none.
     *
     * @param channel   the connection
     * @param timeout   the deadline
     * @param onTimeout called (on the event loop) before a connection is closed for missing it
     * @return true when an HTTP/1.1 decoder was found (the deadline is now on it, or already was)
     */
    public static boolean attachFromFirstByte(Channel channel, Duration timeout, Runnable onTimeout) {
        if (channel.pipeline().get(RAW) != null) {
            return true;
        }
        return install(channel, timeout, onTimeout) != null;
    }

    private static @Nullable RequestHeaderDeadline install(Channel channel, Duration timeout, Runnable onTimeout) {
        ChannelPipeline pipeline = channel.pipeline();
        // Found by type, not by Reactor Netty's name: the h2c upgrade path adds the HTTP/1.1 codec unnamed.
        ChannelHandlerContext codec = pipeline.context(HttpServerCodec.class);
        if (codec == null) {
            return null;
        }
        RequestHeaderDeadline deadline = new RequestHeaderDeadline(channel, timeout, onTimeout);
        pipeline.addBefore(codec.name(), RAW, deadline.new RawBytes());
        pipeline.addAfter(codec.name(), DECODED, deadline.new DecodedRequests());
        return deadline;
    }

    private void start() {
        if (timer == null && unanswered == 0 && channel.isActive()) {
            timer = channel.eventLoop().schedule(this::expire, timeoutNanos, TimeUnit.NANOSECONDS);
        }
    }

    private void stop() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    private void expire() {
        timer = null;
        if (unanswered == 0 && channel.isActive()) {
            onTimeout.run();
            channel.close();
        }
    }

    /** In front of the codec: the first byte of a request starts the clock. */
    private final class RawBytes extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (unanswered == 0 && msg instanceof ByteBuf bytes && bytes.isReadable()) {
                start();
            }
            ctx.fireChannelRead(msg);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            stop();
            ctx.fireChannelInactive();
        }
    }

    /** Behind the codec: decoded headers stop the clock; the end of a response waits for the next request. */
    private final class DecodedRequests extends ChannelDuplexHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HttpRequest) {
                stop();
                unanswered++;
            }
            ctx.fireChannelRead(msg);
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            // A "100 Continue" is complete but does not answer the request: its body is still to come.
            boolean informational = msg instanceof HttpResponse response
                    && response.status().codeClass() == HttpStatusClass.INFORMATIONAL;
            if (msg instanceof LastHttpContent && !informational && unanswered > 0) {
                unanswered--;
            }
            ctx.write(msg, promise);
        }
    }
}
