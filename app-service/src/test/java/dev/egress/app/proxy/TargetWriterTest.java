package dev.egress.app.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.registry.Route;
import dev.egress.discovery.web.forward.TunnelCall;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

class TargetWriterTest {

    private static final int CHUNK = 16 * 1024;
    private static final Route ROUTE = new Route(
            EgressIp.of("127.0.0.2"), BorderId.of("border-a"), URI.create("http://127.0.0.1:1"), IpStatus.ACTIVE);

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final ProxyContext context = TestProxyContexts.of(meters, new AtomicInteger());

    /** A sender that reads nothing: every write waits, its promise pending, until released. */
    private static final class StalledSender extends ChannelOutboundHandlerAdapter {
        private final List<Object> messages = new ArrayList<>();
        private final List<ChannelPromise> promises = new ArrayList<>();

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            messages.add(msg);
            promises.add(promise);
        }

        @Override
        public void flush(ChannelHandlerContext ctx) {}

        int held() {
            return promises.size();
        }

        void takeAll() {
            List<Object> taken = new ArrayList<>(messages);
            List<ChannelPromise> done = new ArrayList<>(promises);
            messages.clear();
            promises.clear();
            for (int i = 0; i < taken.size(); i++) {
                ReferenceCountUtil.release(taken.get(i));
                done.get(i).setSuccess();
            }
        }
    }

    private static Flux<ByteBuf> fastTarget(AtomicLong requested) {
        return Flux.<ByteBuf>generate(sink -> sink.next(Unpooled.wrappedBuffer(new byte[CHUNK])))
                .doOnRequest(requested::addAndGet);
    }

    @Test
    void aSenderThatTakesNothingStopsTheBordersStreamAtItsTenantsBudget() {
        StalledSender sender = new StalledSender();
        EmbeddedChannel channel = new EmbeddedChannel(sender);
        TunnelMemory memory = new TunnelMemory(1 << 20, 4 * CHUNK);
        Tunnel tunnel = new Tunnel(context, "acme", new TunnelCall("example.com", 443));
        AtomicLong requested = new AtomicLong();

        Mono.<Void>create(done -> fastTarget(requested)
                        .subscribe(new TargetWriter(channel, done, tunnel, memory.account("acme"))))
                .subscribe();

        // Four chunks fill acme's 64 KiB: the stream is asked for nothing more, not buffered into App.
        assertThat(requested).hasValue(4);
        assertThat(sender.held()).isEqualTo(4);
        assertThat(memory.used()).isEqualTo(4L * CHUNK);

        sender.takeAll();
        assertThat(requested)
                .as("the stream is read again as the sender takes bytes")
                .hasValue(8);
        assertThat(memory.used()).isEqualTo(4L * CHUNK);
        channel.finishAndReleaseAll();
    }

    @Test
    void aSenderThatReadsNothingUntilTheStallTimeoutEndsTheTunnelWithItsReason() {
        StalledSender sender = new StalledSender();
        EmbeddedChannel channel = new EmbeddedChannel(sender, new ChannelInboundHandlerAdapter());
        ChannelHandlerContext opening = channel.pipeline().lastContext();
        Tunnel tunnel = new Tunnel(context, "acme", new TunnelCall("example.com", 443));
        TunnelMemory memory = new TunnelMemory(1 << 20, 1 << 20);

        Mono.<Void>create(done -> {
                    TargetWriter writer = new TargetWriter(channel, done, tunnel, memory.account("acme"));
                    tunnel.established(opening, writer);
                    Flux.just(Unpooled.wrappedBuffer(new byte[CHUNK]))
                            .concatWith(Flux.never())
                            .subscribe(writer);
                })
                .subscribe();
        assertThat(sender.held()).isEqualTo(1);

        channel.pipeline().fireUserEventTriggered(IdleStateEvent.WRITER_IDLE_STATE_EVENT);

        assertThat(channel.isOpen()).isFalse();
        tunnel.ended(new TunnelDispatcher.Ended(ROUTE, 1, 0));
        Counter closed = meters.find("egress.proxy.tunnels.closed")
                .tag("reason", "sender-stalled")
                .counter();
        assertThat(closed).isNotNull();
        assertThat(closed.count()).isEqualTo(1);
    }

    @Test
    void aTargetThatSendsNothingIsNoStalledSender() {
        StalledSender sender = new StalledSender();
        EmbeddedChannel channel = new EmbeddedChannel(sender, new ChannelInboundHandlerAdapter());
        ChannelHandlerContext opening = channel.pipeline().lastContext();
        Tunnel tunnel = new Tunnel(context, "acme", new TunnelCall("example.com", 443));
        TunnelMemory memory = new TunnelMemory(1 << 20, 1 << 20);

        Mono.<Void>create(done -> {
                    TargetWriter writer = new TargetWriter(channel, done, tunnel, memory.account("acme"));
                    tunnel.established(opening, writer);
                    Flux.<ByteBuf>never().subscribe(writer);
                })
                .subscribe();
        channel.pipeline().fireUserEventTriggered(IdleStateEvent.WRITER_IDLE_STATE_EVENT);

        assertThat(channel.isOpen()).isTrue();
        channel.close();
    }
}
