package dev.egress.border.tunnel;

import dev.egress.border.BorderException;
import dev.egress.border.InvalidRequestException;
import dev.egress.border.egress.ConnectFailures;
import dev.egress.border.egress.EgressGate;
import dev.egress.border.egress.GateMetrics;
import dev.egress.border.egress.Permit;
import dev.egress.border.ssrf.DenialReason;
import dev.egress.border.ssrf.SsrfGuard;
import dev.egress.border.ssrf.TargetDeniedException;
import dev.egress.border.ssrf.VettingResolverGroup;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.web.forward.ForwardDeadline;
import dev.egress.discovery.web.forward.TunnelCall;
import dev.egress.discovery.web.forward.TunnelPorts;
import dev.egress.discovery.web.problem.CallKind;
import io.netty.channel.ChannelOption;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;
import reactor.netty.tcp.TcpClient;

/**
 * Opens the Border's side of a tunnel. The {@link EgressGate} makes every check a forward makes, in the same order
 * and with the same answers, before any connection; then one TCP connection, never pooled, from a socket bound to
 * the IP's bind address (behind a NAT the bind half of its {@code bind=public} pair) to an address the
 * {@link VettingResolverGroup} resolved once and the SSRF guard vetted: a name that resolves to a denied address is
 * refused with 403 {@code target-denied}, as a forward's is.
 */
final class TunnelService {

    private static final Logger log = LoggerFactory.getLogger(TunnelService.class);

    /**
     * A tunnel whose TCP connection to the target is up.
     *
     * @param ip         the public address
     * @param bind       the bound address
     * @param target     the tunnel's target
     * @param connection the target connection
     * @param permit     the tunnel's place at its IP, to release when the tunnel ends
     */
    record Opened(EgressIp ip, EgressIp bind, TunnelCall target, Connection connection, Permit permit) {}

    private final EgressGate gate;
    private final GateMetrics metrics;
    private final VettingResolverGroup resolver;
    private final Duration connectTimeout;
    private final TunnelPorts ports;

    TunnelService(
            EgressGate gate,
            GateMetrics metrics,
            VettingResolverGroup resolver,
            Duration connectTimeout,
            TunnelPorts ports) {
        this.gate = gate;
        this.metrics = metrics;
        this.resolver = resolver;
        this.connectTimeout = connectTimeout;
        this.ports = ports;
    }

    /**
     * Checks a tunnel call and connects to its target.
     *
     * @param sourceIp the {@value TunnelCall#SOURCE_IP_HEADER} header
     * @param target   the {@value TunnelCall#TARGET_HEADER} header
     * @param deadline App's deadline for the connect, or null
     * @param tenant   the {@value TunnelCall#TENANT_HEADER} header: whose budget the tunnel counts against
     * @return the open tunnel (its permit is the caller's to release), or an error carrying a
     *     {@link BorderException}
     */
    Mono<Opened> open(
            @Nullable String sourceIp,
            @Nullable String target,
            @Nullable ForwardDeadline deadline,
            @Nullable String tenant) {
        return Mono.defer(() -> {
            EgressGate.Admitted<TunnelCall> admitted = gate.admit(new EgressGate.Ask<>(
                    CallKind.TUNNEL, sourceIp, deadline, connectTimeout, () -> parse(target), tenant));
            EgressIp ip = admitted.ip();
            Permit permit = admitted.permit();
            long started = System.nanoTime();
            Duration bound = admitted.timeLeft();
            return connect(admitted.bind(), admitted.target(), bound)
                    // The whole connect, name resolution included, ends by App's deadline (or connect-timeout): a
                    // slow DNS answer is the target's, answered before App gives up, never App's timeout of this
                    // Border (which App would count against the Border).
                    .timeout(bound, Mono.error(() -> ConnectFailures.timedOut(bound)))
                    .map(connection -> {
                        metrics.opened(ip.value(), Duration.ofNanos(System.nanoTime() - started));
                        return new Opened(ip, admitted.bind(), admitted.call(), connection, permit);
                    })
                    .onErrorMap(ConnectFailures::classify)
                    .doOnError(BorderException.class, e -> {
                        permit.release();
                        gate.failed(CallKind.TUNNEL, ip, e);
                        log.debug(
                                "Tunnel from {} to {} failed: {}",
                                ip,
                                admitted.call().authority(),
                                e.getMessage());
                    })
                    .doOnCancel(permit::release);
        });
    }

    private Mono<Connection> connect(EgressIp bind, SsrfGuard.VettedUrl vetted, Duration timeout) {
        InetSocketAddress local = new InetSocketAddress(bind.toInetAddress(), 0);
        InetSocketAddress remote = vetted.literal() != null
                ? new InetSocketAddress(vetted.literal(), vetted.port())
                : InetSocketAddress.createUnresolved(vetted.host(), vetted.port());
        return TcpClient.newConnection()
                .bindAddress(() -> local)
                .resolver(resolver)
                .remoteAddress(() -> remote)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.max(1, timeout.toMillis()))
                // Read only when the splice asks, one small buffer at a time (TargetReads).
                .option(ChannelOption.AUTO_READ, false)
                .option(ChannelOption.RCVBUF_ALLOCATOR, TargetReads.ALLOCATOR)
                .connect()
                .cast(Connection.class);
    }

    /**
     * The tunnel's own input: its target, as {@code host:port}, to a port webhooks use or one the operator added (the
     * same rule as App's proxy, checked here too: the Border does not count on App for what leaves its IPs).
     */
    private EgressGate.Checked<TunnelCall> parse(@Nullable String target) {
        TunnelCall call;
        try {
            call = TunnelCall.parse(target);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException(TunnelCall.TARGET_HEADER + ": " + e.getMessage());
        }
        if (!ports.allows(call.port())) {
            throw new TargetDeniedException(
                    DenialReason.PORT_NOT_ALLOWED,
                    "port %d is not allowed (443, 80 and egress.tunnel.allowed-ports)".formatted(call.port()));
        }
        // The URL form only carries host and port to the guard's lexical checks; no scheme-specific rule applies.
        return new EgressGate.Checked<>(call, "http://" + call.authority() + "/");
    }
}
