package dev.egress.border.ops;

import dev.egress.border.BorderException;
import dev.egress.border.InvalidRequestException;
import dev.egress.border.IpNotHostedException;
import dev.egress.border.UnavailableException;
import dev.egress.border.decisions.DecisionKeeper;
import dev.egress.border.egress.InFlightCalls;
import dev.egress.border.registration.BorderRegistrar;
import dev.egress.border.trust.ClientCertificates;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.web.forward.BorderPaths;
import dev.egress.discovery.web.forward.IpRelease;
import dev.egress.discovery.web.forward.IpStatusChange;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Operator API (Bearer operator token): see and change the status of this Border's IPs. A change is
 * stored in the registry first ({@link DecisionKeeper}: it survives a restart; if it cannot be stored the
 * answer is 503 and nothing changes), then applied locally and republished as a whole announcement; the
 * answer comes when the registry holds both. The same change is offered to App at {@code PUT /internal/v1/ips/{ip}} (Bearer
 * internal token and, on the trust chain, App's client certificate, like every forward), so operators can
 * steer the whole fleet from App over App's own link to the Borders. A release ({@code PUT .../release},
 * {@link IpRelease}) is the Border's part of an operator's move of a dedicated IP to another Border: the IP stays
 * hosted, announced {@code DISABLED} as released, and no longer counts as this Border's claim.
 */
@RestController
class OpsController {

    private static final Duration PUBLISH_WAIT = Duration.ofSeconds(10);

    private final BorderRegistrar registrar;
    private final DecisionKeeper decisions;
    private final InFlightCalls calls;
    private final ClientCertificates clients;

    OpsController(
            BorderRegistrar registrar, DecisionKeeper decisions, InFlightCalls calls, ClientCertificates clients) {
        this.registrar = registrar;
        this.decisions = decisions;
        this.calls = calls;
        this.clients = clients;
    }

    /**
     * This Border's state.
     *
     * @param borderId     the Border
     * @param endpoint     its advertised URL
     * @param registration registration state
     * @param generation   generation last accepted by the registry (-1 before registration)
     * @param draining     whether shutdown has started
     * @param ips          the IPs
     */
    record BorderView(
            String borderId,
            String endpoint,
            String registration,
            long generation,
            boolean draining,
            List<IpView> ips) {}

    /**
     * One IP.
     *
     * @param ip       the IP (its public address)
     * @param bind     the address its sockets bind (equal to {@code ip} without NAT)
     * @param status   its status
     * @param reason   why this Border withholds it by itself (such as {@code egress-identity-mismatch}), or null
     * @param inFlight calls in flight from it
     */
    record IpView(
            String ip,
            String bind,
            IpStatus status,
            @Nullable String reason,
            int inFlight) {}

    /**
     * Body of a status change.
     *
     * @param status {@code ACTIVE}, {@code DRAINING} or {@code DISABLED}
     */
    @GetMapping("/ops/v1/ips")
    BorderView list() {
        return view(registrar.current());
    }

    @PutMapping("/ops/v1/ips/{ip}")
    Mono<BorderView> change(@PathVariable("ip") String ip, @RequestBody IpStatusChange change) {
        return apply(ip, change);
    }

    @PutMapping(BorderPaths.IP)
    Mono<BorderView> changeFromApp(
            ServerWebExchange exchange, @PathVariable("ip") String ip, @RequestBody IpStatusChange change) {
        // The internal door's second factor: a token alone must not steer the fleet when the trust chain is on.
        clients.requireApp(exchange);
        return apply(ip, change);
    }

    @PutMapping("/ops/v1/ips/{ip}/release")
    Mono<BorderView> release(@PathVariable("ip") String ip, @RequestBody IpRelease release) {
        return applyRelease(ip, release);
    }

    @PutMapping(BorderPaths.IP_RELEASE)
    Mono<BorderView> releaseFromApp(
            ServerWebExchange exchange, @PathVariable("ip") String ip, @RequestBody IpRelease release) {
        clients.requireApp(exchange);
        return applyRelease(ip, release);
    }

    private Mono<BorderView> applyRelease(String ip, @Nullable IpRelease release) {
        if (release == null || release.released() == null) {
            return Mono.error(new InvalidRequestException("released: missing (expected: true or false)"));
        }
        boolean released = release.released();
        return decided(ip, egressIp -> decisions.release(egressIp, released));
    }

    private Mono<BorderView> apply(String ip, @Nullable IpStatusChange change) {
        IpStatus status = parseStatus(change == null ? null : change.status());
        return decided(ip, egressIp -> decisions.change(egressIp, status));
    }

    /** Stores and announces a decision on one hosted IP; answers with the Border's view once published. */
    private Mono<BorderView> decided(String ip, Function<EgressIp, CompletableFuture<Announcement>> decision) {
        EgressIp egressIp;
        try {
            egressIp = EgressIp.of(ip);
        } catch (IllegalArgumentException e) {
            return Mono.error(new IpNotHostedException("ip '%s' is not hosted by this Border".formatted(ip)));
        }
        return Mono.fromFuture(() -> decision.apply(egressIp))
                .timeout(PUBLISH_WAIT)
                .onErrorMap(
                        // Not hosted (404) and not stored (503, nothing changed) say so themselves.
                        e -> !(e instanceof BorderException),
                        e -> new UnavailableException(
                                "applied locally, but the registry did not confirm the change: " + e))
                .map(published -> view(registrar.current()));
    }

    private BorderView view(Announcement a) {
        return new BorderView(
                a.borderId().value(),
                a.endpoint().toString(),
                registrar.state().name(),
                registrar.publishedGeneration(),
                calls.draining(),
                a.ips().stream()
                        .map(i -> new IpView(
                                i.ip().value(), i.bind().value(), i.status(), i.reason(), calls.inFlight(i.ip())))
                        .toList());
    }

    private static IpStatus parseStatus(String text) {
        return IpStatus.fromName(text)
                .orElseThrow(() ->
                        new InvalidRequestException("status: '%s' (expected: %s)".formatted(text, IpStatus.choices())));
    }
}
