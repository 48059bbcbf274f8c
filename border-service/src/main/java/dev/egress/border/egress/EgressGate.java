package dev.egress.border.egress;

import dev.egress.border.BorderException;
import dev.egress.border.HostedIps;
import dev.egress.border.InvalidRequestException;
import dev.egress.border.IpNotHostedException;
import dev.egress.border.registration.BorderRegistrar;
import dev.egress.border.ssrf.SsrfGuard;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.web.forward.ForwardDeadline;
import dev.egress.discovery.web.forward.TunnelCall;
import dev.egress.discovery.web.problem.CallKind;
import dev.egress.discovery.web.problem.CallMeters;
import java.time.Clock;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The Border's one gate for App's calls, forwards and tunnels alike: every check that can refuse a call without
 * touching the network, written once, in the order that matters for security and for App's retry rule: the
 * deadline (a call App gave up on takes nothing), a hosted IP (one source: {@link HostedIps}, public addresses
 * only, so a request can never pick a bind address), the call's own input (400/413, before any state is read),
 * not draining (one switch for both kinds, {@link Admission}), the IP {@code ACTIVE} here, the target vetted by the
 * SSRF guard without a lookup, and last a place at the IP under its kind's limit, so that a refused call never
 * holds one. Every refusal is a {@link BorderException} with {@code targetContacted=false}, counted here once.
 *
 * <p>An admitted call holds a {@link Permit}: the caller releases it however the call ends (its
 * {@link Permit#holding} does that for a {@code Mono}), and a tunnel asks it to be closed at the drain's end.
 */
public final class EgressGate {

    private final HostedIps hosted;
    private final BorderRegistrar registrar;
    private final SsrfGuard guard;
    private final Admission admission;
    private final GateMetrics metrics;
    private final Clock clock;

    EgressGate(
            HostedIps hosted,
            BorderRegistrar registrar,
            SsrfGuard guard,
            Admission admission,
            GateMetrics metrics,
            Clock clock) {
        this.hosted = hosted;
        this.registrar = registrar;
        this.guard = guard;
        this.admission = admission;
        this.metrics = metrics;
        this.clock = clock;
    }

    /**
     * The call's own input checks, run after the IP is known to be hosted and before any state is read.
     *
     * @param <T> the checked call
     */
    @FunctionalInterface
    public interface Input<T> {
        /**
         * Checks the call's input.
         *
         * @return the checked call and its target
         * @throws BorderException 400 or 413 when the input breaks a rule
         */
        Checked<T> check();
    }

    /**
     * A call whose input passed its checks.
     *
     * @param call   the call, as its service carries it on
     * @param target the target as a URL, for the SSRF guard's checks without a lookup
     * @param <T>    the call
     */
    public record Checked<T>(T call, String target) {}

    /**
     * What a call asks the gate for.
     *
     * @param kind     forward or tunnel
     * @param sourceIp the IP App names, as sent
     * @param deadline App's deadline, or null (an App that sends none)
     * @param longest  the longest the call may take to reach its target (a forward's {@code call-timeout}, a
     *                 tunnel's {@code connect-timeout}); App's deadline cuts it short
     * @param input    the call's own input checks
     * @param tenant   whose budget a tunnel counts against (App's {@link TunnelCall#TENANT_HEADER}); null for a
     *                 forward, and for a tunnel of an App that names none, which counts under its source IP
     * @param <T>      the checked call
     */
    public record Ask<T>(
            CallKind kind,
            @Nullable String sourceIp,
            @Nullable ForwardDeadline deadline,
            Duration longest,
            Input<T> input,
            @Nullable String tenant) {

        /**
         * A call without a tenant (forwards).
         *
         * @param kind     forward or tunnel
         * @param sourceIp the IP App names, as sent
         * @param deadline App's deadline, or null
         * @param longest  the longest the call may take to reach its target
         * @param input    the call's own input checks
         */
        public Ask(
                CallKind kind,
                @Nullable String sourceIp,
                @Nullable ForwardDeadline deadline,
                Duration longest,
                Input<T> input) {
            this(kind, sourceIp, deadline, longest, input, null);
        }
    }

    /**
     * An admitted call.
     *
     * @param call     the checked call
     * @param ip       the public address: the IP's identity in every check and meter
     * @param bind     the address the socket binds (the public one, or its bind half behind a NAT)
     * @param target   the vetted target
     * @param timeLeft how long the call may take to reach its target
     * @param permit   the call's place, to release however it ends
     * @param <T>      the checked call
     */
    public record Admitted<T>(
            T call, EgressIp ip, EgressIp bind, SsrfGuard.VettedUrl target, Duration timeLeft, Permit permit) {}

    /**
     * Runs every check; on success the call holds a place of its IP.
     *
     * @param ask the call
     * @param <T> the checked call
     * @return the admitted call
     * @throws BorderException the first check that refuses it, counted and not contacted
     */
    public <T> Admitted<T> admit(Ask<T> ask) {
        String tag = CallMeters.OTHER_IP;
        try {
            Duration timeLeft = timeLeft(ask);
            EgressIp ip = hostedIp(ask);
            tag = ip.value();
            Checked<T> checked = ask.input().check();
            if (admission.draining()) {
                throw new IpNotActiveException("this Border is draining; send from another Border");
            }
            IpStatus status = registrar.statusOf(ip).orElse(IpStatus.DISABLED);
            if (status != IpStatus.ACTIVE) {
                throw new IpNotActiveException("sourceIp %s is %s on this Border".formatted(ip, status));
            }
            SsrfGuard.VettedUrl target = guard.vetUrl(checked.target());
            String tenant = tenantOf(ask, ip);
            Permit permit = admission.tryEnter(ask.kind(), ip, tenant).orElseThrow(() -> full(ask.kind(), ip, tenant));
            return new Admitted<>(checked.call(), ip, hosted.bindOf(ip).orElseThrow(), target, timeLeft, permit);
        } catch (BorderException e) {
            metrics.failed(ask.kind(), tag, e);
            throw e;
        }
    }

    /**
     * Counts a call that failed after the gate admitted it, in the same meters as the gate's refusals.
     *
     * @param kind    the call's kind
     * @param ip      the admitted IP
     * @param problem the failure
     */
    public void failed(CallKind kind, EgressIp ip, BorderException problem) {
        metrics.failed(kind, ip.value(), problem);
    }

    /** Checked first, so that a late call never holds a place nor reads any state. */
    private Duration timeLeft(Ask<?> ask) {
        if (ask.deadline() == null) {
            return ask.longest();
        }
        long left = ask.deadline().millisLeft(clock.instant());
        if (left <= 0) {
            throw new DeadlineExceededException("the %s arrived %d ms after its deadline; App has given up on it"
                    .formatted(ask.kind() == CallKind.FORWARD ? "forward" : "tunnel call", -left));
        }
        return left < ask.longest().toMillis() ? Duration.ofMillis(left) : ask.longest();
    }

    private EgressIp hostedIp(Ask<?> ask) {
        EgressIp ip;
        try {
            ip = EgressIp.of(String.valueOf(ask.sourceIp()));
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException("%s: '%s' (expected: an IPv4 or IPv6 literal)"
                    .formatted(
                            ask.kind() == CallKind.FORWARD ? "sourceIp" : TunnelCall.SOURCE_IP_HEADER, ask.sourceIp()));
        }
        if (hosted.bindOf(ip).isEmpty()) {
            throw new IpNotHostedException("sourceIp %s is not hosted by this Border".formatted(ip));
        }
        return ip;
    }

    /**
     * The key a tunnel's budget counts under: the tenant App names, or the source IP for an App that names none (an
     * App of the previous release during a roll). Forwards have none.
     */
    private static @Nullable String tenantOf(Ask<?> ask, EgressIp ip) {
        if (ask.kind() != CallKind.TUNNEL) {
            return null;
        }
        String tenant = ask.tenant();
        if (tenant == null || tenant.isBlank()) {
            return "ip " + ip.value();
        }
        if (tenant.length() > TunnelCall.MAX_TENANT_LENGTH) {
            throw new InvalidRequestException("%s: %d characters (expected: <= %d)"
                    .formatted(TunnelCall.TENANT_HEADER, tenant.length(), TunnelCall.MAX_TENANT_LENGTH));
        }
        return "tenant " + tenant;
    }

    /**
     * The IP's places are taken, or the whole Border's (its tunnels' memory budget): 429 either way, not contacted,
     * which App takes as busy (another route, no fault counted against this Border).
     */
    private BorderException full(CallKind kind, EgressIp ip, @Nullable String tenant) {
        if (admission.atCap(kind)) {
            return new TooManyRequestsException("this Border's %s budget is taken; use another Border"
                    .formatted(kind == CallKind.FORWARD ? "call" : "tunnel memory"));
        }
        if (tenant != null && admission.tenantFull(tenant)) {
            return new TooManyRequestsException("this tenant's tunnel memory budget on this Border is taken");
        }
        return new TooManyRequestsException("sourceIp %s has reached its %s limit"
                .formatted(ip, kind == CallKind.FORWARD ? "concurrency" : "tunnel"));
    }
}
