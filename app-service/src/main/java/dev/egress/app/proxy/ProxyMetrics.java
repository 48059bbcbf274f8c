package dev.egress.app.proxy;

import dev.egress.discovery.registry.LogText;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The proxy's meters and its one log line per tunnel. Meters: {@code egress.proxy.tunnels.opened} (by
 * {@code tenant_class} and egress {@code ip}), {@code egress.proxy.tunnels.refused} (by {@code outcome}, the
 * problem slug or {@code port-not-allowed}, and {@code tenant_class}), {@code egress.proxy.tunnels.closed} (by
 * {@code reason}), {@code egress.proxy.tunnels.active} (gauge), {@code egress.proxy.tunnel.bytes} (per tunnel, by
 * {@code direction} {@code up}/{@code down} and {@code ip}), {@code egress.proxy.tunnel.connect} (time from the
 * CONNECT to the tunnel being up, by {@code ip}) and {@code egress.proxy.log.suppressed}.
 *
 * <p>The log line names tenant, destination, egress IP, Border, bytes each way, duration and outcome, never a
 * credential. A sender opens tunnels at will, so lines are rate-limited by a token bucket ({@code LINES_PER_SECOND}
 * a second, bursts up to {@code BURST}); what the bucket drops is counted, not lost silently.
 */
final class ProxyMetrics {

    private static final Logger log = LoggerFactory.getLogger("dev.egress.app.proxy.tunnels");
    private static final double LINES_PER_SECOND = 20;
    private static final double BURST = 100;

    private final MeterRegistry meters;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();
    private final Map<String, DistributionSummary> summaries = new ConcurrentHashMap<>();
    private final Counter suppressed;
    private double tokens = BURST;
    private long refilled = System.nanoTime();

    ProxyMetrics(MeterRegistry meters, TunnelLimits limits) {
        this.meters = meters;
        Gauge.builder("egress.proxy.tunnels.active", limits, TunnelLimits::total)
                .description("tunnels open through the forward proxy")
                .register(meters);
        this.suppressed = Counter.builder("egress.proxy.log.suppressed")
                .description("tunnel log lines left out by the rate limit")
                .register(meters);
    }

    void opened(String tenantClass, String ip) {
        counter("egress.proxy.tunnels.opened", "tenant_class", tenantClass, "ip", ip, "tunnels opened")
                .increment();
    }

    void refused(String outcome, String tenantClass) {
        counter(
                        "egress.proxy.tunnels.refused",
                        "outcome",
                        outcome,
                        "tenant_class",
                        tenantClass,
                        "proxy requests refused before a tunnel was up, by problem slug")
                .increment();
    }

    void connected(String ip, Duration latency) {
        timers.computeIfAbsent(
                        ip,
                        k -> Timer.builder("egress.proxy.tunnel.connect")
                                .tag("ip", ip)
                                .description("time from CONNECT to the tunnel being up")
                                .register(meters))
                .record(latency);
    }

    /** One tunnel ended: its meters and, within the rate limit, its log line. */
    void ended(TunnelRecord tunnel) {
        counter("egress.proxy.tunnels.closed", "reason", tunnel.outcome(), "", "", "tunnels closed, by why")
                .increment();
        bytes(tunnel.ip(), "up", tunnel.bytesUp());
        bytes(tunnel.ip(), "down", tunnel.bytesDown());
        if (take()) {
            log.info(
                    "tunnel tenant={} destination={} egressIp={} border={} up={} down={} durationMs={} outcome={}",
                    LogText.escape(tunnel.tenant()),
                    LogText.escape(tunnel.destination()),
                    tunnel.ip(),
                    tunnel.border(),
                    tunnel.bytesUp(),
                    tunnel.bytesDown(),
                    tunnel.durationMs(),
                    tunnel.outcome());
        } else {
            suppressed.increment();
        }
    }

    private void bytes(String ip, String direction, long count) {
        summaries
                .computeIfAbsent(
                        ip + '|' + direction,
                        k -> DistributionSummary.builder("egress.proxy.tunnel.bytes")
                                .tag("ip", ip)
                                .tag("direction", direction)
                                .baseUnit("bytes")
                                .description("bytes per tunnel: up from the sender, down from the target")
                                .register(meters))
                .record(count);
    }

    private Counter counter(String name, String k1, String v1, String k2, String v2, String description) {
        return counters.computeIfAbsent(name + '|' + v1 + '|' + v2, k -> {
            Counter.Builder builder = Counter.builder(name).tag(k1, v1).description(description);
            if (!k2.isEmpty()) {
                builder.tag(k2, v2);
            }
            return builder.register(meters);
        });
    }

    /** The token bucket: refilled by elapsed time, one token per line. */
    private synchronized boolean take() {
        long now = System.nanoTime();
        tokens = Math.min(BURST, tokens + (now - refilled) / 1e9 * LINES_PER_SECOND);
        refilled = now;
        if (tokens < 1) {
            return false;
        }
        tokens -= 1;
        return true;
    }

    /**
     * One ended tunnel, as logged.
     *
     * @param tenant      the tenant
     * @param destination the CONNECT's {@code host:port}
     * @param ip          the egress IP
     * @param border      the Border that carried it
     * @param bytesUp     bytes from the sender to the target
     * @param bytesDown   bytes from the target to the sender
     * @param durationMs  from the tunnel being up to its end
     * @param outcome     why it ended: {@code target-closed}, {@code sender-closed}, {@code idle-timeout},
     *                    {@code max-lifetime}, {@code border-lost}
     */
    record TunnelRecord(
            String tenant,
            String destination,
            String ip,
            String border,
            long bytesUp,
            long bytesDown,
            long durationMs,
            String outcome) {}
}
