package dev.egress.discovery.web.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.netty.NettyPipeline;

/**
 * The deadline on a real Netty pipeline with the HTTP codec (an embedded channel, whose clock the test
 * moves); the services' slow-client tests show the same over sockets.
 */
class RequestHeaderDeadlineTest {

    private static final Duration DEADLINE = Duration.ofSeconds(10);

    private final AtomicInteger timeouts = new AtomicInteger();
    private final EmbeddedChannel channel = new EmbeddedChannel();

    RequestHeaderDeadlineTest() {
        channel.freezeTime();
        channel.pipeline().addLast(NettyPipeline.HttpCodec, new HttpServerCodec());
    }

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
    }

    private void send(String text) {
        channel.writeInbound(Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII));
        Object decoded;
        while ((decoded = channel.readInbound()) != null) {
            ReferenceCountUtil.release(decoded);
        }
    }

    private void after(long seconds) {
        channel.advanceTimeBy(seconds, TimeUnit.SECONDS);
        channel.runPendingTasks();
        channel.runScheduledPendingTasks();
    }

    private void installFromOpening() {
        RequestHeaderDeadline.installFromOpening(channel, DEADLINE, timeouts::incrementAndGet);
        channel.runPendingTasks();
    }

    private void installFromFirstByte() {
        RequestHeaderDeadline.installFromFirstByte(channel, DEADLINE, timeouts::incrementAndGet);
        channel.runPendingTasks();
    }

    /** Still open a second before the deadline, closed (and counted once) a second after it. */
    private void assertClosedAtTheDeadline() {
        after(9);
        assertThat(channel.isOpen()).isTrue();
        after(2);
        assertThat(channel.isOpen()).isFalse();
        assertThat(timeouts).hasValue(1);
    }

    @Test
    void fromTheOpeningAConnectionThatNeverSendsIsClosedAtTheDeadline() {
        installFromOpening();
        assertClosedAtTheDeadline();
    }

    @Test
    void fromTheFirstByteASilentConnectionIsLeftToTheIdleTimeout() {
        installFromFirstByte();
        after(60);
        assertThat(channel.isOpen()).isTrue();
        send("GET / HT");
        assertClosedAtTheDeadline();
    }

    @Test
    void completeHeadersStopTheClockUntilTheAnswerIsWritten() {
        installFromOpening();
        send("GET / HTTP/1.1\r\nHost: a\r\n\r\n");
        after(60);
        assertThat(channel.isOpen()).as("the request is being answered").isTrue();
        channel.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.NO_CONTENT));
        send("G");
        after(11);
        assertThat(channel.isOpen()).as("the next request's headers are late").isFalse();
    }

    @Test
    void aHundredContinueDoesNotEndTheRequest() {
        installFromFirstByte();
        send("POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n");
        channel.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE));
        send("bo");
        after(60);
        assertThat(channel.isOpen())
                .as("the body is the request timeout's business")
                .isTrue();
        assertThat(timeouts).hasValue(0);
    }
}
