package dev.egress.border.egress;

import dev.egress.border.BorderException;
import dev.egress.border.ssrf.TargetDeniedException;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.web.problem.CallKind;
import dev.egress.discovery.web.problem.CallMeters;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The Border's meters of both kinds of call, in the one shape of {@link CallMeters} (a {@code kind} tag, problems
 * by their {@code ProblemType}). Forwards: {@code border.egress.requests} (by {@code ip} and {@code outcome}:
 * {@code 2xx}..{@code 5xx} when the target answered, else the problem's slug), {@code border.egress.latency} (timer
 * with histogram, calls the target answered) and {@code border.egress.in.flight} (gauge). Tunnels:
 * {@code border.tunnel.requests} (outcome {@code opened} or the refusal's slug), {@code border.tunnel.open} (gauge),
 * {@code border.tunnel.connect} (the target connect's latency) and {@code border.tunnel.bytes} (per tunnel, by
 * {@code direction}: {@code up} to the target, {@code down} from it). Both: {@code border.egress.ssrf.denials}
 * (by {@code ip} and {@code reason}). IPs this Border does not host are tagged {@code other}, so callers cannot
 * blow up cardinality.
 */
public final class GateMetrics {

    private static final String FORWARDS = "border.egress.requests";
    private static final String TUNNELS = "border.tunnel.requests";

    private final Map<CallKind, CallMeters> meters = new EnumMap<>(CallKind.class);

    GateMetrics(MeterRegistry registry, List<EgressIp> ips, Admission admission) {
        for (CallKind kind : CallKind.values()) {
            meters.put(kind, new CallMeters(registry, kind));
        }
        for (EgressIp ip : ips) {
            meters.get(CallKind.FORWARD)
                    .gauge(
                            "border.egress.in.flight",
                            "egress calls in flight",
                            () -> admission.inFlight(CallKind.FORWARD, ip),
                            "ip",
                            ip.value());
            meters.get(CallKind.TUNNEL)
                    .gauge(
                            "border.tunnel.open",
                            "tunnels open from this IP",
                            () -> admission.inFlight(CallKind.TUNNEL, ip),
                            "ip",
                            ip.value());
        }
    }

    /**
     * Counts a call that ended in a problem: refused by the gate, or failed on its way to the target.
     *
     * @param kind    the call's kind
     * @param ip      the hosted IP, or {@link CallMeters#OTHER_IP}
     * @param problem the problem
     */
    public void failed(CallKind kind, String ip, BorderException problem) {
        CallMeters of = meters.get(kind);
        if (problem instanceof TargetDeniedException denied) {
            of.count(
                    "border.egress.ssrf.denials",
                    "targets refused by the SSRF guard",
                    "ip",
                    ip,
                    "reason",
                    denied.reason().name());
        }
        of.failed(requests(kind), description(kind), problem.type(), "ip", ip);
    }

    /**
     * Counts a forward the target answered.
     *
     * @param ip      the hosted IP
     * @param status  the target's status
     * @param latency from sending to the end of the answer
     */
    void answered(String ip, int status, Duration latency) {
        CallMeters forwards = meters.get(CallKind.FORWARD);
        forwards.time(
                "border.egress.latency",
                "time from sending to the end of the target's response",
                true,
                latency,
                "ip",
                ip);
        forwards.count(FORWARDS, description(CallKind.FORWARD), "ip", ip, CallMeters.OUTCOME, (status / 100) + "xx");
    }

    /**
     * Counts a tunnel whose target connection is up.
     *
     * @param ip      the hosted IP
     * @param connect the time the connect took
     */
    public void opened(String ip, Duration connect) {
        CallMeters tunnels = meters.get(CallKind.TUNNEL);
        tunnels.time("border.tunnel.connect", "time to connect to a tunnel's target", false, connect, "ip", ip);
        tunnels.count(TUNNELS, description(CallKind.TUNNEL), "ip", ip, CallMeters.OUTCOME, "opened");
    }

    /**
     * Records what one tunnel carried, once it ended.
     *
     * @param ip   the hosted IP
     * @param up   bytes to the target
     * @param down bytes from the target
     */
    public void carried(String ip, long up, long down) {
        CallMeters tunnels = meters.get(CallKind.TUNNEL);
        String description = "bytes carried per tunnel: up to the target, down from it";
        tunnels.bytes("border.tunnel.bytes", description, up, "ip", ip, "direction", "up");
        tunnels.bytes("border.tunnel.bytes", description, down, "ip", ip, "direction", "down");
    }

    private static String requests(CallKind kind) {
        return kind == CallKind.FORWARD ? FORWARDS : TUNNELS;
    }

    private static String description(CallKind kind) {
        return kind == CallKind.FORWARD
                ? "egress calls by outcome"
                : "tunnel calls by outcome: opened, or the refusal's problem slug";
    }
}
