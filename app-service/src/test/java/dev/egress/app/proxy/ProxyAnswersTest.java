package dev.egress.app.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.discovery.web.problem.Problem;
import dev.egress.discovery.web.problem.ProblemType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ProxyAnswersTest {

    /** Answers on its first read, as the frontend does; drops whatever comes after. */
    private static final class Refusing extends ChannelInboundHandlerAdapter {
        private final boolean bodyMayFollow;
        private boolean answered;
        private int dropped;

        Refusing(boolean bodyMayFollow) {
            this.bodyMayFollow = bodyMayFollow;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof ByteBuf bytes && answered) {
                dropped += bytes.readableBytes();
            }
            ReferenceCountUtil.release(msg);
            if (!answered) {
                answered = true;
                ProxyAnswers.send(ctx, Problem.of(ProblemType.INVALID_REQUEST, "no"), bodyMayFollow);
            }
        }
    }

    private static String answer(EmbeddedChannel channel) {
        ByteBuf out = channel.readOutbound();
        try {
            return out.toString(StandardCharsets.US_ASCII);
        } finally {
            out.release();
        }
    }

    @Test
    void anAnswerWithNoBodyToComeClosesAtOnce() {
        EmbeddedChannel channel = new EmbeddedChannel(new Refusing(false));
        channel.writeInbound(Unpooled.copiedBuffer("CONNECT", StandardCharsets.US_ASCII));
        assertThat(answer(channel)).startsWith("HTTP/1.1 400 Bad Request\r\n").contains("Connection: close");
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void afterAnAbsoluteFormRequestTheRestOfTheBodyIsReadAndDroppedThenTheConnectionCloses() {
        Refusing refusing = new Refusing(true);
        EmbeddedChannel channel = new EmbeddedChannel(refusing);
        channel.config().setAutoRead(false);
        channel.writeInbound(Unpooled.copiedBuffer("POST http://x/ ", StandardCharsets.US_ASCII));
        assertThat(answer(channel)).startsWith("HTTP/1.1 400 ");
        assertThat(channel.isOpen()).as("open while the body may still come").isTrue();
        assertThat(channel.config().isAutoRead())
                .as("reading, so that no reset swallows the answer")
                .isTrue();
        channel.writeInbound(Unpooled.copiedBuffer("more body", StandardCharsets.US_ASCII));
        assertThat(refusing.dropped).isEqualTo(9);
        channel.advanceTimeBy(1900, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        assertThat(channel.isOpen()).isTrue();
        channel.advanceTimeBy(200, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        assertThat(channel.isOpen()).as("closed after the linger").isFalse();
    }
}
