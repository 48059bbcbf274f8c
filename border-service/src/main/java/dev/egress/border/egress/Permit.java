package dev.egress.border.egress;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

/**
 * An admitted call's place at its IP, and the one way to give it back: {@link #release()} is idempotent, so the
 * paths by which a call can end (it completes, fails, is cancelled, throws while it is built) may each release it
 * without counting twice. A tunnel also hands over what closes it, so the end of the drain can close it.
 */
public final class Permit {

    private final Admission admission;
    private final AtomicInteger count;
    private final AtomicInteger all;
    private final @Nullable String tenant;
    private final AtomicBoolean released = new AtomicBoolean();
    private volatile @Nullable Disposable closer;

    Permit(Admission admission, AtomicInteger count, AtomicInteger all, @Nullable String tenant) {
        this.admission = admission;
        this.count = count;
        this.all = all;
        this.tenant = tenant;
    }

    /** Gives the place back; only the first call counts. */
    public void release() {
        if (released.compareAndSet(false, true)) {
            admission.exit(this, count, all, tenant);
        }
    }

    /**
     * Whether the place was given back.
     *
     * @return true after {@link #release()}
     */
    public boolean released() {
        return released.get();
    }

    /**
     * Runs the admitted call and releases the place when it ends, however it ends. Deferred, so no failure can
     * happen between admission and the release being attached (Netty refuses some input only when the request is
     * assembled).
     *
     * @param call builds the call
     * @param <T>  the call's result
     * @return the call, releasing the place once
     */
    public <T> Mono<T> holding(Supplier<Mono<T>> call) {
        return Mono.defer(call).doFinally(signal -> release());
    }

    /**
     * Asks the drain to close this call if it is still running when {@code egress.border.drain-timeout} passes (a
     * tunnel: it has no deadline of its own).
     *
     * @param closes what closes the call
     */
    public void closeAtDrainTimeout(Disposable closes) {
        this.closer = closes;
        if (!released.get()) {
            admission.closeAtDrainTimeout(this);
        }
    }

    void close() {
        Disposable closes = closer;
        if (closes != null) {
            closes.dispose();
        }
    }
}
