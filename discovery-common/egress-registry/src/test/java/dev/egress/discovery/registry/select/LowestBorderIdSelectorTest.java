package dev.egress.discovery.registry.select;

import static dev.egress.discovery.registry.testing.Announcements.route;
import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.registry.Route;
import java.util.List;
import org.junit.jupiter.api.Test;

class LowestBorderIdSelectorTest {

    private final BorderSelector selector = new LowestBorderIdSelector();

    @Test
    void picksTheSmallestEligibleBorderIdWhateverTheOrder() {
        Route a = route("border-a", "127.0.0.2", IpStatus.ACTIVE);
        Route b = route("border-b", "127.0.0.2", IpStatus.ACTIVE);
        Route c = route("border-c", "127.0.0.2", IpStatus.ACTIVE);

        assertThat(selector.select(List.of(c, a, b), 1)).isSameAs(a);
        assertThat(selector.select(List.of(b, c, a), 2)).isSameAs(a);
    }

    @Test
    void comparesIdsAsTextNotAsNumbers() {
        Route ten = route("border-10", "127.0.0.2", IpStatus.ACTIVE);
        Route nine = route("border-9", "127.0.0.2", IpStatus.ACTIVE);

        assertThat(selector.select(List.of(nine, ten), 0)).isSameAs(ten);
    }

    @Test
    void skipsRoutesThatAreNotActive() {
        Route a = route("border-a", "127.0.0.2", IpStatus.DRAINING);
        Route b = route("border-b", "127.0.0.2", IpStatus.DISABLED);
        Route c = route("border-c", "127.0.0.2", IpStatus.ACTIVE);

        assertThat(selector.select(List.of(a, b, c), 0)).isSameAs(c);
    }

    @Test
    void returnsNullWhenNothingIsEligible() {
        assertThat(selector.select(List.of(), 0)).isNull();
        assertThat(selector.select(List.of(route("border-a", "127.0.0.2", IpStatus.DRAINING)), 0))
                .isNull();
    }

    @Test
    void ignoresTheRequestKey() {
        List<Route> candidates = List.of(
                route("border-b", "127.0.0.2", IpStatus.ACTIVE), route("border-a", "127.0.0.3", IpStatus.ACTIVE));

        for (long key = -500; key < 500; key++) {
            assertThat(selector.select(candidates, key).borderId().value()).isEqualTo("border-a");
        }
    }

    @Test
    void amongOneBordersRoutesKeepsTheFirstListed() {
        // Candidates come in the tenant's IP order, so the tenant's first listed IP on that Border wins.
        List<Route> candidates = List.of(
                route("border-a", "127.0.0.3", IpStatus.ACTIVE), route("border-a", "127.0.0.2", IpStatus.ACTIVE));

        assertThat(selector.select(candidates, 0)).isSameAs(candidates.get(0));
    }

    @Test
    void isNamedByItsConfigurationName() {
        assertThat(selector).hasToString("lowest-border-id");
    }
}
