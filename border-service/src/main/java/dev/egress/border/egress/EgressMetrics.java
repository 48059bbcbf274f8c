package dev.egress.border.egress;

import dev.egress.border.ssrf.DenialReason;
import dev.egress.discovery.registry.EgressIp;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-IP egress metrics: {@code border.egress.requests} (counter by ip and outcome),
 * {@code border.egress.latency} (timer with histogram, calls the target answered),
 * {@code border.egress.in.flight} (gauge), {@code border.egress.ssrf.denials} (counter by ip and reason).
 * IPs this Border does not host are tagged {@code other} so that callers cannot blow up cardinality.
 */
final class EgressMetrics {

    static final String OTHER_IP = "other";

    private final MeterRegistry meters;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();

    EgressMetrics(MeterRegistry meters, Iterable<EgressIp> ips, Admission admission) {
        this.meters = meters;
        for (EgressIp ip : ips) {
            Gauge.builder("border.egress.in.flight", () -> admission.inFlight(ip))
                    .tag("ip", ip.value())
                    .description("egress calls in flight")
                    .register(meters);
        }
    }

    /**
     * Counts one finished call.
     *
     * @param ip      the hosted IP, or {@link #OTHER_IP}
     * @param outcome {@code 2xx}..{@code 5xx} when the target answered, else the problem slug
     */
    void outcome(String ip, String outcome) {
        counters.computeIfAbsent(
                        ip + '|' + outcome,
                        k -> Counter.builder("border.egress.requests")
                                .tag("ip", ip)
                                .tag("outcome", outcome)
                                .description("egress calls by outcome")
                                .register(meters))
                .increment();
    }

    void latency(String ip, Duration latency) {
        timers.computeIfAbsent(
                        ip,
                        k -> Timer.builder("border.egress.latency")
                                .tag("ip", ip)
                                .publishPercentileHistogram()
                                .description("time from sending to the end of the target's response")
                                .register(meters))
                .record(latency);
    }

    void denied(String ip, DenialReason reason) {
        counters.computeIfAbsent(
                        ip + "|ssrf|" + reason,
                        k -> Counter.builder("border.egress.ssrf.denials")
                                .tag("ip", ip)
                                .tag("reason", reason.name())
                                .description("targets refused by the SSRF guard")
                                .register(meters))
                .increment();
    }
}
