package dev.egress.discovery.registry.select;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.egress.discovery.registry.BorderId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.ValueSource;

class BorderSelectorsTest {

    static final List<String> NAMES = BorderSelectors.NAMES;

    @ParameterizedTest
    @FieldSource("NAMES")
    void createsEveryStrategyByItsName(String name) {
        assertThat(BorderSelectors.byName(name, Map.of()).name()).isEqualTo(name);
    }

    @Test
    void defaultsToLowestBorderId() {
        assertThat(BorderSelectors.DEFAULT).isEqualTo("lowest-border-id");
        assertThat(BorderSelectors.byDefault().name()).isEqualTo("lowest-border-id");
    }

    @Test
    void toleratesCaseAndSurroundingBlanks() {
        assertThat(BorderSelectors.byName(" Round-Robin ", null).name()).isEqualTo("round-robin");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "random", "lowest_border_id", "least-connections"})
    void rejectsUnknownNamesListingTheAllowedOnes(String name) {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> BorderSelectors.byName(name, Map.of()))
                .withMessage(
                        "strategy: '%s' (expected: one of lowest-border-id, round-robin, rendezvous, weighted)", name);
    }

    @Test
    void rejectsAMissingName() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> BorderSelectors.byName(null, Map.of()))
                .withMessageContaining("expected: one of lowest-border-id, round-robin, rendezvous, weighted");
    }

    @Test
    void passesWeightsToTheWeightedStrategy() {
        BorderSelector selector = BorderSelectors.byName("weighted", Map.of(BorderId.of("border-a"), 3));

        assertThat(((WeightedRendezvousSelector) selector).weights())
                .containsExactly(Map.entry(BorderId.of("border-a"), 3));
    }

    @Test
    void treatsMissingWeightsAsAllEqual() {
        BorderSelector selector = BorderSelectors.byName("weighted", null);

        assertThat(((WeightedRendezvousSelector) selector).weights()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1})
    void rejectsWeightsThatAreNotPositive(int weight) {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> BorderSelectors.byName("weighted", Map.of(BorderId.of("border-a"), weight)))
                .withMessage("weights[border-a]: %d (expected: > 0)", weight);
    }

    @Test
    void rejectsNullWeightsEvenForOtherStrategies() {
        Map<BorderId, Integer> weights = new HashMap<>();
        weights.put(BorderId.of("border-a"), null);

        assertThatIllegalArgumentException()
                .isThrownBy(() -> BorderSelectors.byName("rendezvous", weights))
                .withMessage("weights[border-a]: null (expected: > 0)");
    }

    @Test
    void copiesTheWeightsSoLaterChangesDoNotLeakIn() {
        Map<BorderId, Integer> weights = new HashMap<>(Map.of(BorderId.of("border-a"), 3));
        BorderSelector selector = BorderSelectors.byName("weighted", weights);
        weights.put(BorderId.of("border-a"), 9);

        assertThat(((WeightedRendezvousSelector) selector).weights()).containsEntry(BorderId.of("border-a"), 3);
    }

    @Test
    void eachCallReturnsAFreshSelector() {
        assertThat(BorderSelectors.byName("round-robin", Map.of()))
                .isNotSameAs(BorderSelectors.byName("round-robin", Map.of()));
    }
}
