package dev.egress.app.proxy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import java.util.concurrent.atomic.AtomicInteger;
import org.reactivestreams.Subscription;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.MonoSink;
import reactor.core.publisher.SignalType;

/**
 * Target to sender: at most {@link #IN_FLIGHT} buffers on their way to the sender's socket, and the next one asked for
 * of the Border's stream only while the tunnel's tenant and the process are under their byte budgets
 * ({@link TunnelMemory}), so a slow or stalled sender slows the Border's reads from the target (through the stream's
 * flow control) instead of filling App's memory. Each buffer earns one more at once while fewer than
 * {@code IN_FLIGHT} writes are pending: one buffer at a time (stop and wait) cost a hop between the stream's and the
 * sender's event loops per HTTP/2 DATA frame, and a 100 MiB download ran at 5 MB/s. The end of the target's side
 * ends the tunnel ({@code target-closed}); a broken stream (the Border died, the link was reset) ends it as
 * {@code border-lost}.
 */
final class TargetWriter extends BaseSubscriber<ByteBuf> {

    private static final Logger log = LoggerFactory.getLogger(TargetWriter.class);

    /** Buffers (each at most one 16 KiB DATA frame) held per tunnel: at most 256 KiB of App's memory. */
    static final int IN_FLIGHT = 16;

    private final Channel sender;
    private final MonoSink<Void> done;
    private final Tunnel tunnel;
    private final TunnelMemory.Account memory;
    /** Writes to the sender not finished yet. */
    private final AtomicInteger pending = new AtomicInteger();

    TargetWriter(Channel sender, MonoSink<Void> done, Tunnel tunnel, TunnelMemory.Account memory) {
        this.sender = sender;
        this.done = done;
        this.tunnel = tunnel;
        this.memory = memory;
    }

    /** Writes to the sender not finished yet: with some, a writer-idle sender is one that does not read. */
    int pending() {
        return pending.get();
    }

    /** Asks the stream for one more buffer once the tenant and the process are under their byte budgets. */
    private void ask() {
        memory.whenRoom(() -> request(1));
    }

    @Override
    protected void hookOnSubscribe(Subscription subscription) {
        ask();
    }

    @Override
    protected void hookOnNext(ByteBuf bytes) {
        int size = bytes.readableBytes();
        tunnel.received(size);
        memory.take(size);
        // Each buffer earns one more: asked for at once while fewer than IN_FLIGHT writes are pending (no hop per
        // DATA frame), else once this write is done.
        boolean askNow = pending.incrementAndGet() < IN_FLIGHT;
        sender.writeAndFlush(bytes).addListener(future -> {
            pending.decrementAndGet();
            memory.give(size);
            if (!future.isSuccess()) {
                cancel();
                sender.close();
            } else if (!askNow) {
                ask();
            }
        });
        if (askNow) {
            ask();
        }
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
