package dev.egress.discovery.registry.ydb;

import dev.egress.discovery.registry.RejectionReason;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

/**
 * Read-side meters of one App's registry watcher. The routing table's own gauges are
 * {@link dev.egress.discovery.registry.RoutingGauges}, bound by the table's owner.
 *
 * <ul>
 *   <li>{@code egress.registry.propagation.lag} (timer with p50/p90/p99 and histogram): apply time minus
 *       {@code publishedAt} of each announcement generation new to this watcher</li>
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

    WatcherMetrics(MeterRegistry meters) {
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
            rejected.put(
                    reason,
                    Counter.builder("egress.registry.announcements.rejected")
                            .description(
                                    "Owners whose announcement App refused to route on, by reason (once per owner and reason)")
                            .tag("reason", reason.slug())
                            .register(meters));
        }
        this.watchFailures = Counter.builder("egress.registry.watch.failures")
                .description("Failed or interrupted owner watches")
                .register(meters);
        this.pollFailures = Counter.builder("egress.registry.poll.failures")
                .description("Safety-net polls that could not read the registry")
                .register(meters);
        this.sessionFailures = Counter.builder("egress.registry.session.failures")
                .description("Failed attempts to open the watcher's session, and lost sessions")
                .register(meters);
        this.link = new StateGauge<>(
                meters,
                "egress.registry.session.state",
                "Registry session state (1 = current)",
                ROLE,
                LinkState.CONNECTING);
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
