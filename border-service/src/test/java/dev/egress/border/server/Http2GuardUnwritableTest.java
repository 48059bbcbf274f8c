package dev.egress.border.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The header deadline of a connection that does not read our answers: being unwritable extends a half-sent header
 * block's deadline only a few times, since a client that stops reading makes the connection unwritable at will.
 * On Netty's embedded channel, whose clock the test moves.
 */
class Http2GuardUnwritableTest {

    private static final Duration DEADLINE = Duration.ofSeconds(1);
    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private final AtomicInteger timeouts = new AtomicInteger();

    private EmbeddedChannel channel() {
        Http2Guard guard = new Http2Guard(
                new Http2Guard.Limits(DEADLINE, 200, Duration.ofSeconds(30)), ch -> true, new Http2Guard.Events() {
                    @Override
                    public void headerTimeout() {
                        timeouts.incrementAndGet();
                    }

                    @Override
                    public void rapidReset() {}
                });
        EmbeddedChannel channel = new EmbeddedChannel(guard);
        channel.config().setWriteBufferWaterMark(new WriteBufferWaterMark(1, 2));
        return channel;
    }

    /** A HEADERS frame header announcing 16 bytes of header block, without END_HEADERS, and 3 of them. */
    private static byte[] halfHeaderBlock() {
        return new byte[] {0, 0, 16, 0x1, 0, 0, 0, 0, 1, 'a', 'b', 'c'};
    }

    @Test
    void closesAHalfSentHeaderBlockOnAConnectionThatNeverReadsOurAnswers() {
        EmbeddedChannel channel = channel();
        // Answers written and never taken by the client: the connection stays unwritable.
        channel.write(Unpooled.wrappedBuffer(new byte[64]));
        assertThat(channel.isWritable()).isFalse();

        channel.writeInbound(Unpooled.wrappedBuffer(PREFACE), Unpooled.wrappedBuffer(halfHeaderBlock()));
        for (int i = 0; i < 10 && channel.isOpen(); i++) {
            channel.advanceTimeBy(DEADLINE.toMillis() + 1, TimeUnit.MILLISECONDS);
            channel.runScheduledPendingTasks();
        }

        assertThat(channel.isOpen())
                .as("closed after at most %d extensions", Http2Guard.MAX_EXTENSIONS)
                .isFalse();
        assertThat(timeouts).hasValue(1);
        channel.finishAndReleaseAll();
    }

    @Test
    void extendsTheDeadlineWhileUnwritableAFewTimes() {
        EmbeddedChannel channel = channel();
        channel.write(Unpooled.wrappedBuffer(new byte[64]));

        channel.writeInbound(Unpooled.wrappedBuffer(PREFACE), Unpooled.wrappedBuffer(halfHeaderBlock()));
        channel.advanceTimeBy(DEADLINE.toMillis() + 1, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();

        assertThat(channel.isOpen())
                .as("one deadline passed while unwritable: extended")
                .isTrue();
        channel.finishAndReleaseAll();
    }
}
