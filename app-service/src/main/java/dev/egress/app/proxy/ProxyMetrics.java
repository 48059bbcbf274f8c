package dev.egress.app.proxy;

import dev.egress.discovery.registry.LogText;
import dev.egress.discovery.web.problem.CallKind;
import dev.egress.discovery.web.problem.CallMeters;
import dev.egress.discovery.web.problem.ProblemType;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The proxy's meters and its one log line per tunnel, in the one shape of {@link CallMeters} (every meter tagged
 * {@code kind=tunnel}, a refusal by its problem type's slug). Meters: {@code egress.proxy.tunnels.opened} (by
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

    private final CallMeters meters;
    private final Counter suppressed;
    private double tokens = BURST;
    private long refilled = System.nanoTime();

    ProxyMetrics(MeterRegistry registry, TunnelLimits limits) {
        this.meters = new CallMeters(registry, CallKind.TUNNEL);
        meters.gauge("egress.proxy.tunnels.active", "tunnels open through the forward proxy", limits::total);
        this.suppressed = Counter.builder("egress.proxy.log.suppressed")
                .description("tunnel log lines left out by the rate limit")
                .register(registry);
    }

    void opened(String tenantClass, String ip) {
        meters.count("egress.proxy.tunnels.opened", "tunnels opened", "tenant_class", tenantClass, "ip", ip);
    }

    void refused(String outcome, String tenantClass) {
        String description = "proxy requests refused before a tunnel was up, by problem slug";
        ProblemType problem = ProblemType.ofSlug(outcome);
        if (problem != null) {
            meters.failed("egress.proxy.tunnels.refused", description, problem, "tenant_class", tenantClass);
        } else {
            // A refusal with a reason of its own (port-not-allowed): the same tag, not a problem type.
            meters.count(
                    "egress.proxy.tunnels.refused",
                    description,
                    "tenant_class",
                    tenantClass,
                    CallMeters.OUTCOME,
                    outcome);
        }
    }

    void connected(String ip, Duration latency) {
        meters.time(
                "egress.proxy.tunnel.connect", "time from CONNECT to the tunnel being up", false, latency, "ip", ip);
    }

    /** One tunnel ended: its meters and, within the rate limit, its log line. */
    void ended(TunnelRecord tunnel) {
        meters.count("egress.proxy.tunnels.closed", "tunnels closed, by why", "reason", tunnel.outcome());
        String description = "bytes per tunnel: up from the sender, down from the target";
        meters.bytes("egress.proxy.tunnel.bytes", description, tunnel.bytesUp(), "ip", tunnel.ip(), "direction", "up");
        meters.bytes(
                "egress.proxy.tunnel.bytes", description, tunnel.bytesDown(), "ip", tunnel.ip(), "direction", "down");
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
