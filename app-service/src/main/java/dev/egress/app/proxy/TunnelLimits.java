package dev.egress.app.proxy;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * App's count of open tunnels, per tenant and per egress IP, each under its limit
 * ({@code egress.proxy.max-tunnels-per-tenant}, {@code max-tunnels-per-ip}). A place is taken before the tunnel
 * is asked for and given back when it ends, however it ends.
 */
final class TunnelLimits {

    private final int perTenant;
    private final int perIp;
    private final ConcurrentHashMap<String, AtomicInteger> tenants = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, AtomicInteger> ips = new ConcurrentHashMap<>();
    private final AtomicInteger total = new AtomicInteger();

    TunnelLimits(int perTenant, int perIp) {
        this.perTenant = perTenant;
        this.perIp = perIp;
    }

    boolean tryTenant(String tenant) {
        return tryTake(tenants, tenant, perTenant);
    }

    void releaseTenant(String tenant) {
        release(tenants, tenant);
    }

    boolean tryIp(String ip) {
        return tryTake(ips, ip, perIp);
    }

    void releaseIp(String ip) {
        release(ips, ip);
    }

    /**
     * Tunnels open from one egress IP, as App counts them.
     *
     * @param ip the IP
     * @return the count
     */
    int openFrom(String ip) {
        AtomicInteger count = ips.get(ip);
        return count == null ? 0 : count.get();
    }

    int total() {
        return total.get();
    }

    private boolean tryTake(ConcurrentHashMap<String, AtomicInteger> counts, String key, int limit) {
        AtomicInteger count = counts.computeIfAbsent(key, k -> new AtomicInteger());
        while (true) {
            int current = count.get();
            if (current >= limit) {
                return false;
            }
            if (count.compareAndSet(current, current + 1)) {
                if (counts == tenants) {
                    total.incrementAndGet();
                }
                return true;
            }
        }
    }

    private void release(ConcurrentHashMap<String, AtomicInteger> counts, String key) {
        AtomicInteger count = counts.get(key);
        if (count != null && count.decrementAndGet() >= 0 && counts == tenants) {
            total.decrementAndGet();
        }
    }
}
