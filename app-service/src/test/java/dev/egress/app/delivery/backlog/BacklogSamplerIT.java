package dev.egress.app.delivery.backlog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.app.delivery.Attempt;
import dev.egress.app.delivery.DeliveryRecord;
import dev.egress.app.delivery.DeliveryStore;
import dev.egress.app.delivery.NewDelivery;
import dev.egress.app.delivery.NextAttempt;
import dev.egress.app.delivery.Retention;
import dev.egress.app.delivery.ydb.DeliveryTables;
import dev.egress.discovery.registry.testing.MutableClock;
import dev.egress.ydb.coordination.EmbeddedCoordinationNode;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The backlog gauges over the real store on the embedded node: what one count finds is what the gauges say, every
 * tenant of the tenants file has a series, and a count that fails keeps the last values and is counted.
 */
class BacklogSamplerIT {

    private static final Instant T0 = Instant.now().truncatedTo(ChronoUnit.MICROS);

    private EmbeddedCoordinationNode node;
    private DeliveryTables tables;
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final MutableClock clock = new MutableClock(T0);

    @BeforeEach
    void open() {
        node = EmbeddedCoordinationNode.start(0);
        String prefix = "b" + UUID.randomUUID().toString().replace("-", "").substring(0, 12) + "_";
        tables = DeliveryTables.open(node.connectionString(), prefix, Retention.DEFAULT, 2);
    }

    @AfterEach
    void close() throws Exception {
        tables.close();
        node.close();
    }

    @Test
    void gaugesShowTheLastCountAndKeepItWhenACountFails() {
        DeliveryStore store = tables.store();
        DeliveryRecord waiting = store.accept(delivery("acme", 0), "app-1", T0, Duration.ofSeconds(30))
                .record();
        DeliveryRecord dead = store.accept(delivery("acme", 1), "app-1", T0, Duration.ofSeconds(30))
                .record();
        store.recordAttempt(waiting.key(), "app-1", attempt(), new NextAttempt.At(2, T0.plusSeconds(1)), T0);
        store.recordAttempt(dead.key(), "app-1", attempt(), new NextAttempt.Dead(false), T0);
        DeliveryStore[] current = {store};
        BacklogSampler sampler = new BacklogSampler(
                () -> current[0],
                () -> Set.of("acme", "small-co"),
                4,
                new BacklogProperties(Duration.ofSeconds(15), 1000),
                clock,
                meters);

        clock.set(T0.plusSeconds(61));
        sampler.sample();

        assertThat(gauge("egress.durable.backlog", "acme")).isEqualTo(1);
        assertThat(gauge("egress.durable.backlog", "small-co")).isZero();
        assertThat(gauge("egress.durable.dead.stored", "acme")).isEqualTo(1);
        assertThat(gauge("egress.durable.dead.stored", "small-co")).isZero();
        assertThat(meters.get("egress.durable.oldest.due.age").gauge().value()).isEqualTo(60.0);
        assertThat(sampler.last()).get().satisfies(b -> assertThat(b.complete()).isTrue());

        tables.close(); // the store fails from now on
        clock.set(T0.plusSeconds(121));
        sampler.sample();

        assertThat(meters.get("egress.durable.backlog.sample.failures")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(gauge("egress.durable.backlog", "acme")).isEqualTo(1);
        assertThat(gauge("egress.durable.dead.stored", "acme")).isEqualTo(1);
        // The oldest due record keeps ageing between counts.
        assertThat(meters.get("egress.durable.oldest.due.age").gauge().value()).isEqualTo(120.0);
        sampler.close();
    }

    @Test
    void withoutAStoreNothingIsCounted() {
        BacklogSampler sampler = new BacklogSampler(
                () -> null,
                () -> Set.of("acme"),
                4,
                new BacklogProperties(Duration.ofSeconds(15), 1000),
                clock,
                meters);
        sampler.sample();
        assertThat(sampler.last()).isEmpty();
        assertThat(meters.get("egress.durable.oldest.due.age").gauge().value()).isZero();
        assertThat(meters.get("egress.durable.backlog.sample.failures")
                        .counter()
                        .count())
                .isZero();
        sampler.close();
    }

    private double gauge(String name, String tenant) {
        return meters.get(name).tag("tenant", tenant).gauge().value();
    }

    private static NewDelivery delivery(String tenant, int bucket) {
        return new NewDelivery(UUID.randomUUID().toString(), tenant, null, "f", new byte[] {1}, bucket);
    }

    private static Attempt attempt() {
        return new Attempt(T0, "127.0.0.3", "border-a", "retry", null, 503, Duration.ofMillis(5), null);
    }
}
