package dev.egress.border.tunnel;

import dev.egress.discovery.registry.EgressIp;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The tunnel endpoint's meters: {@code border.tunnel.requests} (by {@code ip} and {@code outcome}: {@code opened}
 * or the refusal's problem slug), {@code border.tunnel.open} (gauge per IP), {@code border.tunnel.connect} (the
 * target connect's latency per IP) and {@code border.tunnel.bytes} (per IP and {@code direction}: {@code up} to
 * the target, {@code down} from it).
 */
final class TunnelMetrics {

    /** The {@code ip} tag of a refusal before the IP was known to be hosted. */
    static final String OTHER_IP = "other";

    private final MeterRegistry meters;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();
    private final Map<String, DistributionSummary> bytes = new ConcurrentHashMap<>();

    TunnelMetrics(MeterRegistry meters, Iterable<EgressIp> ips, OpenTunnels open) {
        this.meters = meters;
        for (EgressIp ip : ips) {
            Gauge.builder("border.tunnel.open", () -> open.open(ip))
                    .tag("ip", ip.value())
                    .description("tunnels open from this IP")
                    .register(meters);
        }
    }

    void outcome(String ip, String outcome) {
        counters.computeIfAbsent(
                        ip + '|' + outcome,
                        k -> Counter.builder("border.tunnel.requests")
                                .tag("ip", ip)
                                .tag("outcome", outcome)
                                .description("tunnel calls by outcome: opened, or the refusal's problem slug")
                                .register(meters))
                .increment();
    }

    void connected(String ip, Duration latency) {
        timers.computeIfAbsent(
                        ip,
                        k -> Timer.builder("border.tunnel.connect")
                                .tag("ip", ip)
                                .description("time to connect to a tunnel's target")
                                .register(meters))
                .record(latency);
    }

    void bytes(String ip, String direction, long count) {
        bytes.computeIfAbsent(
                        ip + '|' + direction,
                        k -> DistributionSummary.builder("border.tunnel.bytes")
                                .tag("ip", ip)
                                .tag("direction", direction)
                                .baseUnit("bytes")
                                .description("bytes carried per tunnel: up to the target, down from it")
                                .register(meters))
                .record(count);
    }
}
