package dev.egress.border.tunnel;

import dev.egress.discovery.registry.EgressIp;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import reactor.core.Disposable;

/**
 * The open tunnels: a count per dedicated IP under {@code egress.tunnel.max-per-ip}, and a handle on each so the
 * drain can close what is left. On shutdown it stops in the same phase as the Border's lifecycle (which announces
 * every IP DRAINING and refuses new calls): from then on no tunnel opens, open ones run until they end or
 * {@code egress.border.drain-timeout} passes, and then they are closed, which App passes on as a closed connection
 * to the sender.
 */
final class OpenTunnels implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(OpenTunnels.class);

    private final int maxPerIp;
    private final Duration drainTimeout;
    private final Map<EgressIp, AtomicInteger> perIp;
    private final Set<Disposable> open = ConcurrentHashMap.newKeySet();
    private volatile boolean running;
    private volatile boolean draining;

    OpenTunnels(List<EgressIp> ips, int maxPerIp, Duration drainTimeout) {
        this.maxPerIp = maxPerIp;
        this.drainTimeout = drainTimeout;
        this.perIp = ips.stream().collect(Collectors.toUnmodifiableMap(Function.identity(), ip -> new AtomicInteger()));
    }

    /**
     * Takes a place for a tunnel from an IP.
     *
     * @param ip a hosted IP
     * @return false when the IP has {@code max-per-ip} tunnels open (or it is not hosted)
     */
    boolean tryOpen(EgressIp ip) {
        AtomicInteger count = perIp.get(ip);
        if (count == null) {
            return false;
        }
        while (true) {
            int current = count.get();
            if (current >= maxPerIp) {
                return false;
            }
            if (count.compareAndSet(current, current + 1)) {
                return true;
            }
        }
    }

    /**
     * Gives a place back.
     *
     * @param ip the IP of {@link #tryOpen}
     */
    void closed(EgressIp ip) {
        perIp.get(ip).decrementAndGet();
    }

    /**
     * Remembers a running tunnel, so the end of the drain can close it.
     *
     * @param tunnel what closes it
     */
    void track(Disposable tunnel) {
        open.add(tunnel);
        if (draining && !running) {
            tunnel.dispose();
        }
    }

    /**
     * Forgets a tunnel that ended.
     *
     * @param tunnel the handle of {@link #track}
     */
    void untrack(Disposable tunnel) {
        open.remove(tunnel);
    }

    /**
     * Tunnels open from an IP.
     *
     * @param ip the IP
     * @return the count (0 for an IP not hosted here)
     */
    int open(EgressIp ip) {
        AtomicInteger count = perIp.get(ip);
        return count == null ? 0 : count.get();
    }

    /**
     * Whether new tunnels are refused (shutdown in progress).
     *
     * @return true while draining
     */
    boolean draining() {
        return draining;
    }

    @Override
    public void start() {
        running = true;
    }

    @Override
    public void stop() {
        stop(() -> {});
    }

    @Override
    public void stop(Runnable callback) {
        draining = true;
        // Asynchronous, so that this wait runs beside the Border lifecycle's drain of calls, not after it.
        Thread drainer = new Thread(
                () -> {
                    try {
                        drain();
                    } finally {
                        running = false;
                        callback.run();
                    }
                },
                "egress-tunnel-drain");
        drainer.setDaemon(true);
        drainer.start();
    }

    private void drain() {
        long deadline = System.nanoTime() + drainTimeout.toNanos();
        log.info("Draining: refusing new tunnels, {} open", open.size());
        while (!open.isEmpty() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(50); // polling a set that only shrinks; nothing here waits for an outcome
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        if (!open.isEmpty()) {
            log.warn("Drain timeout {} reached with {} tunnels open: closing them", drainTimeout, open.size());
            List.copyOf(open).forEach(Disposable::dispose);
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        // The Border lifecycle's phase: both drains run in the same shutdown phase.
        return Integer.MAX_VALUE - 1000;
    }
}
