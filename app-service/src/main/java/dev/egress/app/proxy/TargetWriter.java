package dev.egress.app.proxy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import org.reactivestreams.Subscription;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.MonoSink;
import reactor.core.publisher.SignalType;

/**
 * Target to sender: at most {@link #IN_FLIGHT} buffers on their way to the sender's socket, one more asked for as
 * each one is written, so a slow sender slows the Border's reads from the target (through the stream's flow
 * control) instead of filling App's memory. One buffer at a time (stop and wait) cost a hop between the stream's
 * and the sender's event loops per HTTP/2 DATA frame: a 100 MiB download ran at 5 MB/s. The end of the target's side ends the tunnel ({@code target-closed}); a broken stream
 * (the Border died, the link was reset) ends it as {@code border-lost}.
 */
final class TargetWriter extends BaseSubscriber<ByteBuf> {

    private static final Logger log = LoggerFactory.getLogger(TargetWriter.class);

    /** Buffers (each at most one 16 KiB DATA frame) held per tunnel: at most 256 KiB of App's memory. */
    static final int IN_FLIGHT = 16;

    private final Channel sender;
    private final MonoSink<Void> done;
    private final Tunnel tunnel;

    TargetWriter(Channel sender, MonoSink<Void> done, Tunnel tunnel) {
        this.sender = sender;
        this.done = done;
        this.tunnel = tunnel;
    }

    @Override
    protected void hookOnSubscribe(Subscription subscription) {
        request(IN_FLIGHT);
    }

    @Override
    protected void hookOnNext(ByteBuf bytes) {
        tunnel.received(bytes.readableBytes());
        sender.writeAndFlush(bytes).addListener(future -> {
            if (future.isSuccess()) {
                request(1);
            } else {
                cancel();
                sender.close();
            }
        });
    }

    @Override
    protected void hookOnComplete() {
        // After the writes still in flight (they complete in order): closing at once would drop the target's last
        // bytes, which is the whole answer of an absolute-form request.
        sender.eventLoop()
                .execute(() -> sender.writeAndFlush(Unpooled.EMPTY_BUFFER)
                        .addListener(written -> tunnel.end(sender, "target-closed")));
    }

    @Override
    protected void hookOnError(Throwable error) {
        log.debug("Tunnel stream ended with {}", error.toString());
        sender.eventLoop().execute(() -> tunnel.end(sender, "border-lost"));
    }

    @Override
    protected void hookFinally(SignalType type) {
        done.success();
    }
}
