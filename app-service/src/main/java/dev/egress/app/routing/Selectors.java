package dev.egress.app.routing;

import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.select.BorderSelector;
import dev.egress.discovery.registry.select.BorderSelectors;
import java.util.HashMap;
import java.util.Map;

/**
 * Turns {@code egress.routing.strategy} (or {@code shared-strategy}) and
 * {@code egress.routing.weights.<borderId>} into one of the
 * shared strategies; a wrong name or weight stops startup with a message naming the property.
 */
final class Selectors {

    private Selectors() {}

    static BorderSelector byName(String property, String name, Map<String, Integer> weights) {
        try {
            Map<BorderId, Integer> byBorder = new HashMap<>();
            weights.forEach((id, weight) -> byBorder.put(BorderId.of(id), weight));
            return BorderSelectors.byName(name, byBorder);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(property + " (or egress.routing.weights): " + e.getMessage(), e);
        }
    }
}
