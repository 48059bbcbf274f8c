package dev.egress.border.tunnel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;
import reactor.netty.Connection;
import reactor.netty.tcp.TcpClient;

/**
 * The target side of a tunnel's back pressure, against a real local target that writes as fast as it can: the Border
 * reads one buffer per buffer asked for, never ahead, so a tunnel whose App side stops asking holds one buffer (Reactor
 * Netty's own receive, which the splice used before, reads ahead of the demand; the second test shows it).
 */
class TargetReadsTest {

    private ServerSocket server;
    private Connection target;
    private final AtomicLong read = new AtomicLong();
    private final AtomicLong received = new AtomicLong();

    @BeforeEach
    void start() throws IOException {
        server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
        Thread thread = new Thread(this::stream, "fast-target");
        thread.setDaemon(true);
        thread.start();
        target = TcpClient.newConnection()
                .remoteAddress(server::getLocalSocketAddress)
                .option(ChannelOption.AUTO_READ, false)
                .option(ChannelOption.RCVBUF_ALLOCATOR, TargetReads.ALLOCATOR)
                .connectNow(Duration.ofSeconds(10));
        // Counts every byte the connection takes off its socket, whoever consumes it afterwards.
        target.addHandlerFirst("count", new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                read.addAndGet(((ByteBuf) msg).readableBytes());
                ctx.fireChannelRead(msg);
            }
        });
    }

    @AfterEach
    void stop() throws IOException {
        target.disposeNow();
        server.close();
    }

    @Test
    void readsTheTargetOneBufferPerAskAndNothingAhead() {
        Asking asking = new Asking();
        TargetReads.of(target).subscribe(asking);

        await().atMost(Duration.ofSeconds(10)).until(() -> received.get() > 0);
        // However long the target keeps writing, nothing more is read until more is asked for.
        await().during(Duration.ofMillis(500))
                .atMost(Duration.ofSeconds(5))
                .until(() -> read.get() <= TargetReads.CHUNK);

        asking.more(3);
        await().atMost(Duration.ofSeconds(10)).until(() -> asking.count == 4);
        await().during(Duration.ofMillis(500))
                .atMost(Duration.ofSeconds(5))
                .until(() -> read.get() <= 4L * TargetReads.CHUNK);
        assertThat(received.get()).isEqualTo(read.get());
    }

    @Test
    void reactorNettysReceiveReadsAheadOfTheDemandWhichIsWhyTunnelsDoNotUseIt() {
        Asking asking = new Asking();
        target.channel().config().setAutoRead(true);
        Flux<ByteBuf> receive = target.inbound().receive().retain();
        receive.subscribe(asking);

        await().atMost(Duration.ofSeconds(10)).until(() -> read.get() > TargetReads.CHUNK);
        assertThat(asking.count).isEqualTo(1);
    }

    /** Asks for one buffer, then only when told; releases what it gets. */
    private final class Asking extends BaseSubscriber<ByteBuf> {

        private volatile int count;

        @Override
        protected void hookOnSubscribe(Subscription subscription) {
            request(1);
        }

        @Override
        protected void hookOnNext(ByteBuf buf) {
            count++;
            received.addAndGet(buf.readableBytes());
            ReferenceCountUtil.release(buf);
        }

        void more(int n) {
            request(n);
        }
    }

    private void stream() {
        byte[] chunk = new byte[64 * 1024];
        try (Socket socket = server.accept();
                OutputStream out = socket.getOutputStream()) {
            while (true) {
                out.write(chunk);
            }
        } catch (IOException e) {
            // the test ended
        }
    }
}
