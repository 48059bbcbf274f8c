package dev.egress.border.identity;

import dev.egress.discovery.registry.EgressIp;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Checks, at start and every {@code interval}, that each dedicated IP leaves as its announced public
 * address, by asking the echo service from the IP's bind address. The verdicts are one immutable map in
 * one reference, swapped per answer; listeners hear of every change of a verdict (not of every check), so
 * the registrar republishes only when an IP must be withheld or may be served again.
 *
 * <p>An IP is served only after an answer that matched; until the first answer, and after an answer naming
 * another address, it is withheld. A check that gets no answer changes nothing: an outage of the echo
 * service neither proves a wrong translation nor a right one, and must not take every dedicated IP down.
 */
public final class EgressIdentityCheck implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EgressIdentityCheck.class);

    private final EgressEcho echo;
    private final Duration interval;
    private final Clock clock;
    private final AtomicReference<Map<EgressIp, IpIdentity>> identities;
    private final List<Consumer<Map<EgressIp, IpIdentity>>> listeners = new CopyOnWriteArrayList<>();
    private final Counter failures;
    private volatile Disposable schedule;

    /**
     * Creates the check; nothing is asked before {@link #start()}.
     *
     * @param properties   the check's settings (must be enabled)
     * @param bindByPublic every dedicated IP's public address and bind address
     * @param clock        the clock of the verdicts' times
     * @param meters       metrics ({@code border.egress.identity{ip,verdict}} and the failed-check counter)
     */
    public EgressIdentityCheck(
            EgressCheckProperties properties, Map<EgressIp, EgressIp> bindByPublic, Clock clock, MeterRegistry meters) {
        if (!properties.enabled()) {
            throw new IllegalArgumentException("egress.border.egress-check.url is not set");
        }
        this.echo = new EgressEcho(properties.url(), properties.timeout());
        this.interval = properties.interval();
        this.clock = clock;
        Map<EgressIp, IpIdentity> initial = new LinkedHashMap<>();
        bindByPublic.forEach((ip, bind) -> initial.put(ip, IpIdentity.unverified(ip, bind)));
        this.identities = new AtomicReference<>(Map.copyOf(initial));
        this.failures = Counter.builder("border.egress.identity.check.failures")
                .description("egress identity checks that got no usable answer from the echo service")
                .register(meters);
        for (EgressIp ip : initial.keySet()) {
            for (IdentityVerdict verdict : IdentityVerdict.values()) {
                Gauge.builder("border.egress.identity", () -> verdictOf(ip) == verdict ? 1 : 0)
                        .tag("ip", ip.value())
                        .tag("verdict", verdict.name())
                        .description("1 for the IP's current egress identity verdict")
                        .register(meters);
            }
        }
    }

    /** Checks every IP now, then every interval. Idempotent. */
    public synchronized void start() {
        if (schedule != null) {
            return;
        }
        log.info(
                "Egress identity check of {} every {}: each IP is withheld until it is seen as itself",
                identities.get().keySet(),
                interval);
        schedule = Flux.interval(Duration.ZERO, interval, Schedulers.parallel())
                .onBackpressureDrop()
                .concatMap(tick -> checkAll(), 1)
                .subscribe();
    }

    /**
     * Checks every IP once, now.
     *
     * @return completes when every IP's check ended
     */
    public Mono<Void> checkAll() {
        return Flux.fromIterable(identities.get().values()).flatMap(this::check).then();
    }

    private Mono<Void> check(IpIdentity identity) {
        return echo.ask(identity.bind())
                .map(seen -> apply(identity.ip(), current -> current.answered(seen, clock.instant())))
                .onErrorResume(e -> {
                    failures.increment();
                    log.warn(
                            "Egress identity check of {} (bound {}) got no answer: {}; verdict stays {}",
                            identity.ip(),
                            identity.bind(),
                            e.getMessage(),
                            verdictOf(identity.ip()));
                    return Mono.just(apply(identity.ip(), current -> current.failed(e.getMessage(), clock.instant())));
                })
                .then();
    }

    private boolean apply(EgressIp ip, UnaryOperator<IpIdentity> change) {
        Map<EgressIp, IpIdentity> before;
        Map<EgressIp, IpIdentity> after;
        do {
            before = identities.get();
            Map<EgressIp, IpIdentity> next = new LinkedHashMap<>(before);
            next.computeIfPresent(ip, (k, v) -> change.apply(v));
            after = Map.copyOf(next);
        } while (!identities.compareAndSet(before, after));
        IdentityVerdict was = before.get(ip).verdict();
        IpIdentity now = after.get(ip);
        if (was != now.verdict()) {
            if (now.withheld()) {
                log.warn(
                        "Egress identity of {} is {}: seen as {}; the IP is withheld (DISABLED, {})",
                        ip,
                        now.verdict(),
                        now.seen(),
                        now.verdict().withheldReason());
            } else {
                log.info("Egress identity of {} confirmed (seen as itself); the IP may carry traffic", ip);
            }
            Map<EgressIp, IpIdentity> snapshot = after;
            listeners.forEach(l -> l.accept(snapshot));
            return true;
        }
        return false;
    }

    /**
     * Calls {@code listener} with all verdicts after each change of one.
     *
     * @param listener the listener
     */
    public void onChange(Consumer<Map<EgressIp, IpIdentity>> listener) {
        listeners.add(listener);
    }

    /**
     * The current verdicts, by public address.
     *
     * @return an immutable map
     */
    public Map<EgressIp, IpIdentity> identities() {
        return identities.get();
    }

    /**
     * The IPs that must not carry traffic now, with the reason announced for each.
     *
     * @return public address to reason slug
     */
    public Map<EgressIp, String> withheld() {
        Map<EgressIp, String> out = new LinkedHashMap<>();
        identities.get().forEach((ip, id) -> {
            if (id.withheld()) {
                out.put(ip, id.verdict().withheldReason());
            }
        });
        return Map.copyOf(out);
    }

    private IdentityVerdict verdictOf(EgressIp ip) {
        IpIdentity id = identities.get().get(ip);
        return id == null ? IdentityVerdict.UNVERIFIED : id.verdict();
    }

    @Override
    public synchronized void close() {
        Disposable s = schedule;
        if (s != null) {
            s.dispose();
        }
    }
}
