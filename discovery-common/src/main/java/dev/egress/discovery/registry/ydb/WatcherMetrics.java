package dev.egress.discovery.registry.ydb;

import dev.egress.discovery.RejectionReason;
import dev.egress.discovery.RoutingTable;
import java.util.EnumMap;
import java.util.Map;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;

/**
 * Read-side meters of one App's registry watcher. Routing gauges read the table at scrape time, so
 * they can never disagree with what the request path sees.
 *
 * <ul>
 *   <li>{@code egress.registry.propagation.lag} (timer with p50/p90/p99 and histogram): apply time minus
 *       {@code publishedAt} of each announcement generation new to this watcher</li>
 *   <li>{@code egress.routing.snapshot.age} (seconds since the registry last confirmed the snapshot;
 *       NaN before the first read), {@code egress.routing.snapshot.generation}</li>
 *   <li>{@code egress.routing.borders.live}, {@code egress.routing.ips.live},
 *       {@code egress.routing.ips.conflicts} (IPs announced by more than one live Border)</li>
 *   <li>{@code egress.registry.announcements.malformed}: malformed owner payloads, once per owner</li>
 *   <li>{@code egress.registry.announcements.rejected{reason}}: refused owner payloads by
 *       {@link RejectionReason#slug()} (malformed ones included), once per owner session and reason</li>
 *   <li>{@code egress.registry.session.state{role=watcher,state}}: 1 for the current session state</li>
 *   <li>{@code egress.registry.watch.failures}, {@code egress.registry.poll.failures},
 *       {@code egress.registry.session.failures}</li>
 * </ul>
 */
final class WatcherMetrics {

    private static final Tags ROLE = Tags.of("role", "watcher");

    private final Timer lag;
    private final Counter malformed;
    private final Map<RejectionReason, Counter> rejected = new EnumMap<>(RejectionReason.class);
    private final Counter watchFailures;
    private final Counter pollFailures;
    private final Counter sessionFailures;
    private final StateGauge<LinkState> link;

    WatcherMetrics(MeterRegistry meters, RoutingTable table) {
        this.lag = Timer.builder("egress.registry.propagation.lag")
                .description("From a Border's publish to this App applying it")
                .publishPercentiles(0.5, 0.9, 0.99)
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofMinutes(1))
                .register(meters);
        this.malformed = Counter.builder("egress.registry.announcements.malformed")
                .description("Owners whose payload was skipped as malformed (counted once per owner)")
                .register(meters);
        for (RejectionReason reason : RejectionReason.values()) {
            rejected.put(reason, Counter.builder("egress.registry.announcements.rejected")
                    .description("Owners whose announcement App refused to route on, by reason (once per owner and reason)")
                    .tag("reason", reason.slug()).register(meters));
        }
        this.watchFailures = Counter.builder("egress.registry.watch.failures")
                .description("Failed or interrupted owner watches").register(meters);
        this.pollFailures = Counter.builder("egress.registry.poll.failures")
                .description("Safety-net polls that could not read the registry").register(meters);
        this.sessionFailures = Counter.builder("egress.registry.session.failures")
                .description("Failed attempts to open the watcher's session, and lost sessions").register(meters);
        this.link = new StateGauge<>(meters, "egress.registry.session.state",
                "Registry session state (1 = current)", ROLE, LinkState.CONNECTING);
        Gauge.builder("egress.routing.snapshot.age", table,
                        t -> t.isReady() ? t.age().toNanos() / 1e9 : Double.NaN)
                .description("Seconds since the registry last confirmed the routing snapshot")
                .baseUnit("seconds").register(meters);
        Gauge.builder("egress.routing.snapshot.generation", table, t -> t.current().generation())
                .description("Generation of the routing snapshot in use").register(meters);
        Gauge.builder("egress.routing.borders.live", table, t -> t.current().announcements().size())
                .description("Live Borders in the routing snapshot").register(meters);
        Gauge.builder("egress.routing.ips.live", table, t -> t.current().ips().size())
                .description("IPs announced by at least one live Border").register(meters);
        Gauge.builder("egress.routing.ips.conflicts", table, t -> t.current().conflicts().size())
                .description("IPs announced by more than one live Border").register(meters);
    }

    void lag(Duration value) {
        lag.record(value.isNegative() ? Duration.ZERO : value);
    }

    void rejected(RejectionReason reason) {
        if (reason == RejectionReason.MALFORMED) {
            malformed.increment();
        }
        rejected.get(reason).increment();
    }

    void watchFailure() {
        watchFailures.increment();
    }

    void pollFailure() {
        pollFailures.increment();
    }

    void sessionFailure() {
        sessionFailures.increment();
    }

    void link(LinkState state) {
        link.set(state);
    }

    LinkState link() {
        return link.get();
    }
}
