package dev.egress.app.routing;

import dev.egress.discovery.BorderId;
import dev.egress.discovery.select.BorderSelector;
import java.util.HashMap;
import java.util.Map;

/** Turns {@code egress.routing.strategy} and {@code egress.routing.weights} into a selector. */
final class Selectors {

    private Selectors() {
    }

    static BorderSelector byName(String name, Map<String, Integer> weights) {
        Map<BorderId, Integer> byBorder = new HashMap<>();
        weights.forEach((id, weight) -> {
            if (weight == null || weight <= 0) {
                throw new IllegalArgumentException("egress.routing.weights.%s: %s (expected: > 0)".formatted(id, weight));
            }
            byBorder.put(BorderId.of(id), weight);
        });
        if ("lowest-border-id".equals(name)) {
            return new LowestBorderIdSelector();
        }
        throw new IllegalArgumentException(
                "egress.routing.strategy: '%s' (expected: lowest-border-id; more strategies arrive with discovery-common's select package)"
                        .formatted(name));
    }
}
