package dev.egress.discovery.registry.select;

import dev.egress.discovery.registry.BorderId;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Creates a {@link BorderSelector} from its configuration name ({@code egress.routing.strategy}).
 */
public final class BorderSelectors {

    /** Smallest eligible Border id: deterministic, the default. */
    public static final String LOWEST_BORDER_ID = "lowest-border-id";
    /** Eligible candidates in turn. */
    public static final String ROUND_ROBIN = "round-robin";
    /** Highest random weight on the request key: stable, minimal movement. */
    public static final String RENDEZVOUS = "rendezvous";
    /** Rendezvous with per-Border weights. */
    public static final String WEIGHTED = "weighted";
    /** The strategy used when none is configured. */
    public static final String DEFAULT = LOWEST_BORDER_ID;
    /** Every accepted name. */
    public static final List<String> NAMES = List.of(LOWEST_BORDER_ID, ROUND_ROBIN, RENDEZVOUS, WEIGHTED);

    private BorderSelectors() {}

    /**
     * Creates the selector with the given name. Each call returns a new instance (round-robin keeps
     * its own turn counter).
     *
     * @param name    one of {@link #NAMES} (case and surrounding blanks are ignored)
     * @param weights per-Border weights for {@code weighted} (each &gt; 0; unlisted Borders weigh 1);
     *                validated for every strategy, used only by {@code weighted}; may be null
     * @return the selector
     * @throws IllegalArgumentException for an unknown name, naming the allowed values, or for an
     *                                  invalid weight
     */
    public static BorderSelector byName(String name, Map<BorderId, Integer> weights) {
        Map<BorderId, Integer> checked = validWeights(weights);
        String normalized = name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
        return switch (normalized) {
            case LOWEST_BORDER_ID -> new LowestBorderIdSelector();
            case ROUND_ROBIN -> new RoundRobinSelector();
            case RENDEZVOUS -> new RendezvousSelector();
            case WEIGHTED -> new WeightedRendezvousSelector(checked);
            default ->
                throw new IllegalArgumentException(
                        "strategy: '%s' (expected: one of %s)".formatted(name, String.join(", ", NAMES)));
        };
    }

    /**
     * The default selector ({@value #DEFAULT}).
     *
     * @return a new selector
     */
    public static BorderSelector byDefault() {
        return new LowestBorderIdSelector();
    }

    private static Map<BorderId, Integer> validWeights(Map<BorderId, Integer> weights) {
        if (weights == null) {
            return Map.of();
        }
        weights.forEach((borderId, weight) -> {
            if (borderId == null) {
                throw new IllegalArgumentException("weights: null border id (expected: a border id)");
            }
            if (weight == null || weight <= 0) {
                throw new IllegalArgumentException("weights[%s]: %s (expected: > 0)".formatted(borderId, weight));
            }
        });
        return Map.copyOf(weights);
    }
}
