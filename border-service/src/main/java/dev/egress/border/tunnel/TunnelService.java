package dev.egress.border.tunnel;

import dev.egress.border.BorderException;
import dev.egress.border.HostedIps;
import dev.egress.border.InvalidRequestException;
import dev.egress.border.IpNotHostedException;
import dev.egress.border.egress.ConnectFailures;
import dev.egress.border.egress.DeadlineExceededException;
import dev.egress.border.egress.InFlightCalls;
import dev.egress.border.egress.IpNotActiveException;
import dev.egress.border.egress.TooManyRequestsException;
import dev.egress.border.registration.BorderRegistrar;
import dev.egress.border.ssrf.SsrfGuard;
import dev.egress.border.ssrf.TargetDeniedException;
import dev.egress.border.ssrf.VettingResolverGroup;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.web.forward.ForwardDeadline;
import dev.egress.discovery.web.forward.TunnelCall;
import io.netty.channel.ChannelOption;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;
import reactor.netty.tcp.TcpClient;

/**
 * Opens the Border's side of a tunnel. Every check a forward makes, in the same order and with the same
 * answers, before any connection: the deadline, a hosted IP, not draining, the IP ACTIVE here, the target
 * vetted without a lookup, the IP's tunnel limit. Then one TCP connection, never pooled, from a socket bound to
 * the IP's bind address (behind a NAT the bind half of its {@code bind=public} pair) to an address the
 * {@link VettingResolverGroup} resolved once and the SSRF guard vetted: a name that resolves to a denied
 * address is refused with 403 {@code target-denied}, as a forward's is.
 */
final class TunnelService {

    private static final Logger log = LoggerFactory.getLogger(TunnelService.class);

    /** A tunnel whose TCP connection to the target is up and which holds a place of its IP. */
    record Opened(EgressIp ip, EgressIp bind, TunnelCall target, Connection connection) {}

    private final HostedIps hosted;
    private final BorderRegistrar registrar;
    private final InFlightCalls calls;
    private final SsrfGuard guard;
    private final VettingResolverGroup resolver;
    private final OpenTunnels open;
    private final TunnelMetrics metrics;
    private final Duration connectTimeout;
    private final Clock clock = Clock.systemUTC();

    TunnelService(
            HostedIps hosted,
            BorderRegistrar registrar,
            InFlightCalls calls,
            SsrfGuard guard,
            VettingResolverGroup resolver,
            OpenTunnels open,
            TunnelMetrics metrics,
            Duration connectTimeout) {
        this.hosted = hosted;
        this.registrar = registrar;
        this.calls = calls;
        this.guard = guard;
        this.resolver = resolver;
        this.open = open;
        this.metrics = metrics;
        this.connectTimeout = connectTimeout;
    }

    /**
     * Checks a tunnel call and connects to its target.
     *
     * @param sourceIp the {@value TunnelCall#SOURCE_IP_HEADER} header
     * @param target   the {@value TunnelCall#TARGET_HEADER} header
     * @param deadline App's deadline for the connect, or null
     * @return the open tunnel (its place is the caller's to give back with {@link OpenTunnels#closed}), or an
     *     error carrying a {@link BorderException}
     */
    Mono<Opened> open(@Nullable String sourceIp, @Nullable String target, @Nullable ForwardDeadline deadline) {
        return Mono.defer(() -> {
            Duration bound = timeLeft(deadline);
            EgressIp ip = hostedIp(sourceIp);
            TunnelCall call;
            SsrfGuard.VettedUrl vetted;
            try {
                call = parse(target);
                vetted = admit(ip, call);
            } catch (BorderException e) {
                refused(ip.value(), e);
                return Mono.error(e);
            }
            EgressIp bind = hosted.bindOf(ip).orElseThrow();
            long started = System.nanoTime();
            return connect(bind, vetted, bound)
                    .map(connection -> {
                        metrics.connected(ip.value(), Duration.ofNanos(System.nanoTime() - started));
                        metrics.outcome(ip.value(), "opened");
                        return new Opened(ip, bind, call, connection);
                    })
                    .onErrorMap(ConnectFailures::classify)
                    .doOnError(BorderException.class, e -> {
                        open.closed(ip);
                        refused(ip.value(), e);
                        log.debug("Tunnel from {} to {} failed: {}", ip, call.authority(), e.getMessage());
                    })
                    .doOnCancel(() -> open.closed(ip));
        });
    }

    private Mono<Connection> connect(EgressIp bind, SsrfGuard.VettedUrl vetted, Duration bound) {
        InetSocketAddress local = new InetSocketAddress(bind.toInetAddress(), 0);
        InetSocketAddress remote = vetted.literal() != null
                ? new InetSocketAddress(vetted.literal(), vetted.port())
                : InetSocketAddress.createUnresolved(vetted.host(), vetted.port());
        Duration timeout = bound.compareTo(connectTimeout) < 0 ? bound : connectTimeout;
        return TcpClient.newConnection()
                .bindAddress(() -> local)
                .resolver(resolver)
                .remoteAddress(() -> remote)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.max(1, timeout.toMillis()))
                .option(ChannelOption.AUTO_READ, false)
                .connect()
                .cast(Connection.class);
    }

    private void refused(String ip, BorderException e) {
        if (e instanceof TargetDeniedException denied) {
            log.debug("Tunnel target refused from {}: {}", ip, denied.reason());
        }
        metrics.outcome(ip, e.slug());
    }

    private Duration timeLeft(@Nullable ForwardDeadline deadline) {
        if (deadline == null) {
            return connectTimeout;
        }
        long left = deadline.millisLeft(clock.instant());
        if (left <= 0) {
            metrics.outcome(TunnelMetrics.OTHER_IP, "deadline-exceeded");
            throw new DeadlineExceededException(
                    "the tunnel call arrived %d ms after its deadline; App has given up on it".formatted(-left));
        }
        return Duration.ofMillis(left);
    }

    private EgressIp hostedIp(@Nullable String sourceIp) {
        EgressIp ip;
        try {
            ip = EgressIp.of(String.valueOf(sourceIp));
        } catch (IllegalArgumentException e) {
            metrics.outcome(TunnelMetrics.OTHER_IP, "invalid-request");
            throw new InvalidRequestException(
                    "%s: '%s' (expected: an IPv4 or IPv6 literal)".formatted(TunnelCall.SOURCE_IP_HEADER, sourceIp));
        }
        if (hosted.bindOf(ip).isEmpty()) {
            metrics.outcome(TunnelMetrics.OTHER_IP, "ip-not-hosted");
            throw new IpNotHostedException("sourceIp %s is not hosted by this Border".formatted(ip));
        }
        return ip;
    }

    private static TunnelCall parse(@Nullable String target) {
        try {
            return TunnelCall.parse(target);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException(TunnelCall.TARGET_HEADER + ": " + e.getMessage());
        }
    }

    /** The checks that need no network; on success the tunnel holds a place of its IP. */
    private SsrfGuard.VettedUrl admit(EgressIp ip, TunnelCall call) {
        if (calls.draining() || open.draining()) {
            throw new IpNotActiveException("this Border is draining; open the tunnel from another Border");
        }
        IpStatus status = registrar.statusOf(ip).orElse(IpStatus.DISABLED);
        if (status != IpStatus.ACTIVE) {
            throw new IpNotActiveException("sourceIp %s is %s on this Border".formatted(ip, status));
        }
        // The URL form only carries host and port to the guard's lexical checks; no scheme-specific rule applies.
        SsrfGuard.VettedUrl vetted = guard.vetUrl("http://" + call.authority() + "/");
        if (!open.tryOpen(ip)) {
            throw new TooManyRequestsException("sourceIp %s has reached its tunnel limit".formatted(ip));
        }
        return vetted;
    }
}
