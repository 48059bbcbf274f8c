package dev.egress.discovery.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class RouteTest {

    private static final URI ENDPOINT = URI.create("http://127.0.0.1:8181");

    @Test
    void routesByThePublicAddressAndCarriesTheBindAddressFromTheAnnouncement() {
        Announcement a = Announcement.initial(
                BorderId.of("border-a"),
                ENDPOINT,
                List.of(
                        new AnnouncedIp(EgressIp.of("203.0.113.10"), EgressIp.of("10.0.1.5"), IpStatus.ACTIVE),
                        new AnnouncedIp(EgressIp.of("203.0.113.11"), IpStatus.ACTIVE)),
                Instant.parse("2026-11-30T10:15:30Z"));

        RoutingSnapshot snapshot = RoutingSnapshot.fromAnnouncements(List.of(a), Instant.parse("2026-11-30T10:15:31Z"));

        assertThat(snapshot.ips()).containsExactlyInAnyOrder(EgressIp.of("203.0.113.10"), EgressIp.of("203.0.113.11"));
        assertThat(snapshot.eligibleRoutes(EgressIp.of("10.0.1.5")))
                .as("a bind address is no route")
                .isEmpty();
        assertThat(snapshot.eligibleRoutes(EgressIp.of("203.0.113.10")))
                .singleElement()
                .satisfies(r -> assertThat(r.bind()).isEqualTo(EgressIp.of("10.0.1.5")));
        assertThat(snapshot.eligibleRoutes(EgressIp.of("203.0.113.11")))
                .singleElement()
                .satisfies(r -> assertThat(r.bind()).isEqualTo(EgressIp.of("203.0.113.11")));
    }

    @Test
    void acceptsAsSourceOnlyThePublicAddressOrItsOwnBindAddress() {
        Route route = new Route(
                EgressIp.of("203.0.113.10"),
                BorderId.of("border-a"),
                ENDPOINT,
                IpStatus.ACTIVE,
                EgressIp.of("10.0.1.5"));

        assertThat(route.sentFrom(EgressIp.of("203.0.113.10"))).isTrue();
        assertThat(route.sentFrom(EgressIp.of("10.0.1.5"))).isTrue();
        assertThat(route.sentFrom(EgressIp.of("10.0.1.6"))).isFalse();
        assertThat(route.sentFrom(null)).isFalse();
        assertThat(new Route(EgressIp.of("203.0.113.11"), BorderId.of("border-a"), ENDPOINT, IpStatus.ACTIVE)
                        .sentFrom(EgressIp.of("10.0.1.5")))
                .isFalse();
    }
}
