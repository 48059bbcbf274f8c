package dev.egress.discovery.registry.ydb;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.concurrent.atomic.AtomicReference;

/**
 * An enum state exported the Prometheus way: one gauge per possible value, tagged {@code state},
 * 1 for the current value and 0 for the others, so dashboards can sum and alert on a state by name.
 *
 * @param <E> the state type
 */
final class StateGauge<E extends Enum<E>> {

    private final AtomicReference<E> current;

    StateGauge(MeterRegistry meters, String name, String description, Tags tags, E initial) {
        this.current = new AtomicReference<>(initial);
        for (E value : initial.getDeclaringClass().getEnumConstants()) {
            Gauge.builder(name, current, c -> c.get() == value ? 1 : 0)
                    .description(description)
                    .tags(tags.and("state", value.name()))
                    .register(meters);
        }
    }

    void set(E value) {
        current.set(value);
    }

    E get() {
        return current.get();
    }
}
