package dev.egress.border.egress;

import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.web.problem.CallKind;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The Border's places for calls of both kinds: a count per dedicated IP and kind under that kind's limit
 * ({@code egress.limits.max-concurrency-per-ip} for forwards, {@code egress.tunnel.max-per-ip} for tunnels), the
 * one "draining" switch that refuses every new call of either kind on shutdown, and the one drain that waits for
 * both. A place is taken as a {@link Permit}, which gives it back once however the call ends, as a concurrency
 * limiter's listener does; nothing else releases a place.
 */
final class Admission implements InFlightCalls {

    private final Map<CallKind, Integer> limits;
    private final Map<CallKind, Map<EgressIp, AtomicInteger>> held = new EnumMap<>(CallKind.class);
    private final AtomicInteger total = new AtomicInteger();
    private final Map<CallKind, Integer> caps = new EnumMap<>(CallKind.class);
    private final Map<CallKind, AtomicInteger> ofKind = new EnumMap<>(CallKind.class);
    private final int perTenant;
    private final Map<String, Integer> ofTenant = new ConcurrentHashMap<>();
    private final Set<Permit> closable = ConcurrentHashMap.newKeySet();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition idle = lock.newCondition();
    private volatile boolean draining;
    private volatile boolean drainedOut;

    /**
     * Creates the places.
     *
     * @param ips    the hosted (public) IPs
     * @param limits the places per IP of each kind
     */
    Admission(List<EgressIp> ips, Map<CallKind, Integer> limits) {
        this(ips, limits, Map.of());
    }

    /**
     * Creates the places, with a cap over every IP for some kinds.
     *
     * @param ips    the hosted (public) IPs
     * @param limits the places per IP of each kind
     * @param caps   the places over every IP of a kind (tunnels: what the process's buffer budget affords); a kind
     *               not named has none
     */
    Admission(List<EgressIp> ips, Map<CallKind, Integer> limits, Map<CallKind, Integer> caps) {
        this(ips, limits, caps, Integer.MAX_VALUE);
    }

    /**
     * Creates the places, with caps over every IP and a limit per tenant for tunnels.
     *
     * @param ips       the hosted (public) IPs
     * @param limits    the places per IP of each kind
     * @param caps      the places over every IP of a kind
     * @param perTenant the tunnels one tenant (App's quota key) may hold over every IP: what its byte budget affords
     */
    Admission(List<EgressIp> ips, Map<CallKind, Integer> limits, Map<CallKind, Integer> caps, int perTenant) {
        this.limits = Map.copyOf(limits);
        this.perTenant = perTenant;
        for (CallKind kind : CallKind.values()) {
            this.caps.put(kind, caps.getOrDefault(kind, Integer.MAX_VALUE));
            this.ofKind.put(kind, new AtomicInteger());
            held.put(
                    kind,
                    ips.stream().collect(Collectors.toUnmodifiableMap(Function.identity(), ip -> new AtomicInteger())));
        }
    }

    /**
     * Takes a place of a kind from an IP.
     *
     * @param kind the call's kind
     * @param ip   a hosted IP
     * @return the permit, or empty when the IP has all its places of that kind taken (or it is not hosted)
     */
    Optional<Permit> tryEnter(CallKind kind, EgressIp ip) {
        return tryEnter(kind, ip, null);
    }

    /**
     * Takes a place of a kind from an IP, and for a tunnel one of its tenant's.
     *
     * @param kind   the call's kind
     * @param ip     a hosted IP
     * @param tenant the tenant's key (tunnels); null for none (forwards)
     * @return the permit, or empty when the IP, the tenant or the whole Border has its places of that kind taken
     */
    Optional<Permit> tryEnter(CallKind kind, EgressIp ip, @Nullable String tenant) {
        AtomicInteger count = held.get(kind).get(ip);
        if (count == null || !take(count, limits.get(kind))) {
            return Optional.empty();
        }
        if (tenant != null && !takeTenant(tenant)) {
            count.decrementAndGet();
            return Optional.empty();
        }
        AtomicInteger all = ofKind.get(kind);
        if (!take(all, caps.get(kind))) {
            count.decrementAndGet();
            releaseTenant(tenant);
            return Optional.empty();
        }
        total.incrementAndGet();
        // A call that slipped in while draining was switched on is still counted, so the drain waits for it.
        return Optional.of(new Permit(this, count, all, tenant));
    }

    /**
     * Whether a tenant holds all the tunnels its budget affords (so a refusal is the tenant's).
     *
     * @param tenant the tenant's key
     * @return true at its limit
     */
    boolean tenantFull(String tenant) {
        return ofTenant.getOrDefault(tenant, 0) >= perTenant;
    }

    /**
     * Tunnels a tenant holds open.
     *
     * @param tenant the tenant's key
     * @return the count
     */
    int ofTenant(String tenant) {
        return ofTenant.getOrDefault(tenant, 0);
    }

    /** One atomic step per key; an entry lives only while its tenant holds a tunnel, so the map stays small. */
    private boolean takeTenant(String tenant) {
        boolean[] taken = new boolean[1];
        ofTenant.compute(tenant, (key, held) -> {
            int now = held == null ? 0 : held;
            if (now >= perTenant) {
                return held;
            }
            taken[0] = true;
            return now + 1;
        });
        return taken[0];
    }

    private void releaseTenant(@Nullable String tenant) {
        if (tenant != null) {
            ofTenant.computeIfPresent(tenant, (key, held) -> held <= 1 ? null : held - 1);
        }
    }

    /**
     * Whether a kind has every place over all IPs taken (so a refusal is the process's, not the IP's).
     *
     * @param kind the kind
     * @return true at the cap
     */
    boolean atCap(CallKind kind) {
        return ofKind.get(kind).get() >= caps.get(kind);
    }

    private static boolean take(AtomicInteger count, int limit) {
        while (true) {
            int current = count.get();
            if (current >= limit) {
                return false;
            }
            if (count.compareAndSet(current, current + 1)) {
                return true;
            }
        }
    }

    void exit(Permit permit, AtomicInteger count, AtomicInteger all, @Nullable String tenant) {
        closable.remove(permit);
        count.decrementAndGet();
        releaseTenant(tenant);
        all.decrementAndGet();
        if (total.decrementAndGet() == 0 && draining) {
            lock.lock();
            try {
                idle.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    void closeAtDrainTimeout(Permit permit) {
        closable.add(permit);
        if (permit.released()) {
            closable.remove(permit); // raced with its release: nothing left to close
            return;
        }
        // Asked after the drain gave up: close at once, as the drain would have.
        if (drainedOut) {
            permit.close();
        }
    }

    @Override
    public int inFlight(EgressIp ip) {
        return inFlight(CallKind.FORWARD, ip);
    }

    /**
     * Calls of a kind in flight from an IP.
     *
     * @param kind the kind
     * @param ip   the IP
     * @return the count (0 for an IP not hosted here)
     */
    int inFlight(CallKind kind, EgressIp ip) {
        AtomicInteger count = held.get(kind).get(ip);
        return count == null ? 0 : count.get();
    }

    /**
     * Calls of every kind in flight.
     *
     * @return the count
     */
    int total() {
        return total.get();
    }

    @Override
    public boolean draining() {
        return draining;
    }

    /**
     * Refuses new calls of every kind from now on, waits for the calls in flight of both kinds, and at the timeout
     * closes those that asked to be closed then (tunnels; a forward ends by its own deadline).
     *
     * @param timeout the longest wait
     * @return true if every call finished in time
     * @throws InterruptedException if the wait is interrupted
     */
    boolean drain(Duration timeout) throws InterruptedException {
        draining = true;
        long deadline = System.nanoTime() + timeout.toNanos();
        lock.lock();
        try {
            while (total.get() > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    drainedOut = true;
                    List.copyOf(closable).forEach(Permit::close);
                    return false;
                }
                // Bounded wait: a signal raced with this check is picked up on the next round.
                idle.await(Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)), TimeUnit.NANOSECONDS);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }
}
