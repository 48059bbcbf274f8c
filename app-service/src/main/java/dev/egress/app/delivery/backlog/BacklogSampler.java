package dev.egress.app.delivery.backlog;

import dev.egress.app.delivery.Backlog;
import dev.egress.app.delivery.DeliveryStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts the durable backlog every sample interval on one thread, never per scrape, and publishes the last count as
 * gauges and to the fleet view: {@code egress.durable.backlog{tenant}} (records due now, not leased), {@code
 * egress.durable.dead.stored{tenant}} (dead records kept) and {@code egress.durable.oldest.due.age} (seconds since the
 * oldest due record became due, 0 when none). Every tenant of the tenants file has a series (0 when it has nothing
 * waiting), so an alert on a tenant's backlog sees it fall back to 0 rather than vanish. A count that fails keeps the
 * last values and counts {@code egress.durable.backlog.sample.failures}.
 *
 * <p>The store is shared, so every App reports the same fleet-wide numbers: aggregate them with {@code max}, not
 * {@code sum}.
 */
public final class BacklogSampler implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(BacklogSampler.class);

    private final Supplier<@Nullable DeliveryStore> store;
    private final Supplier<Set<String>> tenants;
    private final int buckets;
    private final BacklogProperties properties;
    private final Clock clock;
    private final AtomicReference<@Nullable Backlog> last = new AtomicReference<>();
    private final MultiGauge due;
    private final MultiGauge dead;
    private final Counter failures;
    private final ScheduledExecutorService timer;

    /**
     * @param store   the delivery store, or null while there is none (nothing is counted then)
     * @param tenants the tenants of the tenants file now
     * @param buckets the number of buckets
     */
    public BacklogSampler(
            Supplier<@Nullable DeliveryStore> store,
            Supplier<Set<String>> tenants,
            int buckets,
            BacklogProperties properties,
            Clock clock,
            MeterRegistry meters) {
        this.store = store;
        this.tenants = tenants;
        this.buckets = buckets;
        this.properties = properties;
        this.clock = clock;
        this.due = MultiGauge.builder("egress.durable.backlog")
                .description("Durable deliveries due now and not leased, per tenant (fleet-wide)")
                .register(meters);
        this.dead = MultiGauge.builder("egress.durable.dead.stored")
                .description("Dead durable deliveries kept, per tenant (fleet-wide)")
                .register(meters);
        Gauge.builder("egress.durable.oldest.due.age", this, BacklogSampler::oldestDueSeconds)
                .description("Seconds since the oldest due durable delivery became due; 0 when none is due")
                .baseUnit("seconds")
                .register(meters);
        this.failures = Counter.builder("egress.durable.backlog.sample.failures")
                .description("Backlog counts that failed (the gauges keep the last values)")
                .register(meters);
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "delivery-backlog");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Starts sampling: the first count at once, then every sample interval. */
    public void start() {
        long every = properties.sampleInterval().toMillis();
        timer.scheduleWithFixedDelay(this::sample, 0, every, TimeUnit.MILLISECONDS);
    }

    /** One count; public so that tests need not wait for the timer. */
    public void sample() {
        DeliveryStore current = store.get();
        if (current == null) {
            return;
        }
        try {
            Backlog counted = current.backlog(clock.instant(), buckets, properties.maxRows());
            last.set(counted);
            publish(counted);
            if (!counted.complete()) {
                log.warn(
                        "Durable backlog: more than {} rows waiting; the counts are lower bounds "
                                + "(egress.delivery.backlog.max-rows)",
                        properties.maxRows());
            }
        } catch (RuntimeException e) {
            failures.increment();
            log.warn("Durable backlog: the count failed, keeping the last values: {}", e.toString());
        }
    }

    private void publish(Backlog counted) {
        Set<String> names = new TreeSet<>(tenants.get());
        names.addAll(counted.due().keySet());
        names.addAll(counted.dead().keySet());
        due.register(rows(names, counted.due()), true);
        dead.register(rows(names, counted.dead()), true);
    }

    private static List<MultiGauge.Row<?>> rows(Set<String> names, Map<String, Long> counts) {
        List<MultiGauge.Row<?>> rows = new ArrayList<>();
        for (String tenant : names) {
            rows.add(MultiGauge.Row.of(Tags.of("tenant", tenant), counts.getOrDefault(tenant, 0L)));
        }
        return rows;
    }

    private double oldestDueSeconds() {
        Backlog counted = last.get();
        if (counted == null) {
            return 0;
        }
        // Ages between counts: the oldest due record keeps waiting until a count says otherwise.
        Duration age =
                counted.oldestDue() == null ? Duration.ZERO : Duration.between(counted.oldestDue(), clock.instant());
        return Math.max(0, age.toMillis() / 1000.0);
    }

    /**
     * The last count.
     *
     * @return it, or empty before the first one succeeded
     */
    public Optional<Backlog> last() {
        return Optional.ofNullable(last.get());
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
