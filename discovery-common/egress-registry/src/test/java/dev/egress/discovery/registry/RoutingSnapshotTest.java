package dev.egress.discovery.registry;

import static dev.egress.discovery.registry.testing.Announcements.payload;
import static dev.egress.discovery.registry.testing.Announcements.payloads;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.egress.discovery.registry.testing.Announcements;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

class RoutingSnapshotTest {

    private static final AnnouncementCodec CODEC = new AnnouncementCodec();
    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
    private static final EgressIp IP2 = EgressIp.of("127.0.0.2");
    private static final EgressIp IP3 = EgressIp.of("127.0.0.3");
    private static final EgressIp IP4 = EgressIp.of("127.0.0.4");

    @Test
    void mapsEveryIpToTheBordersAnnouncingIt() {
        RoutingSnapshot snapshot = build(payloads(
                Announcements.of("border-b", "http://127.0.0.1:8182", "127.0.0.3"),
                Announcements.of("border-a", "http://127.0.0.1:8181", "127.0.0.2")));

        assertThat(snapshot.ips()).containsExactlyInAnyOrder(IP2, IP3);
        assertThat(snapshot.routes(IP2)).singleElement().satisfies(route -> {
            assertThat(route.borderId()).isEqualTo(BorderId.of("border-a"));
            assertThat(route.endpoint()).hasToString("http://127.0.0.1:8181");
            assertThat(route.status()).isEqualTo(IpStatus.ACTIVE);
        });
        assertThat(snapshot.announcements()).containsOnlyKeys(BorderId.of("border-a"), BorderId.of("border-b"));
        assertThat(snapshot.builtAt()).isEqualTo(NOW);
        assertThat(snapshot.generation()).isZero();
        assertThat(snapshot.rejections()).isEmpty();
    }

    @Test
    void eligibleRoutesHoldOnlyActiveOnes() {
        RoutingSnapshot snapshot = build(
                payloads(Announcements.of("border-a", "http://127.0.0.1:8181", "127.0.0.2", "127.0.0.3", "127.0.0.4")
                        .withIpStatus(IP3, IpStatus.DRAINING)
                        .withIpStatus(IP4, IpStatus.DISABLED)));

        assertThat(snapshot.eligibleRoutes(IP2)).hasSize(1);
        assertThat(snapshot.eligibleRoutes(IP3)).isEmpty();
        assertThat(snapshot.eligibleRoutes(IP4)).isEmpty();
        assertThat(snapshot.routes(IP3)).extracting(Route::status).containsExactly(IpStatus.DRAINING);
        assertThat(snapshot.status(IP3)).contains(IpStatus.DRAINING);
    }

    @Test
    void collectsTheEligibleRoutesOfSeveralIpsInTheGivenOrder() {
        RoutingSnapshot snapshot = build(payloads(
                Announcements.of("border-b", "http://127.0.0.1:8182", "127.0.0.2", "127.0.0.3"),
                Announcements.of("border-a", "http://127.0.0.1:8181", "127.0.0.3", "127.0.0.4")
                        .withIpStatus(IP4, IpStatus.DRAINING)));

        List<Route> routes = snapshot.eligibleRoutes(List.of(IP3, IP4, IP2, IP3));

        assertThat(routes)
                .extracting(route -> route.ip().value() + "@" + route.borderId().value())
                .containsExactly("127.0.0.3@border-a", "127.0.0.3@border-b", "127.0.0.2@border-b");
        assertThat(snapshot.eligibleRoutes(List.of(IP2))).isSameAs(snapshot.eligibleRoutes(IP2));
        assertThat(snapshot.eligibleRoutes(List.of())).isEmpty();
    }

    @Test
    void unknownIpsHaveNoRoutesAndNoStatus() {
        RoutingSnapshot snapshot = build(payloads(Announcements.of("border-a", "http://127.0.0.1:8181", "127.0.0.2")));

        assertThat(snapshot.routes(IP4)).isEmpty();
        assertThat(snapshot.eligibleRoutes(IP4)).isEmpty();
        assertThat(snapshot.status(IP4)).isEmpty();
    }

    @Test
    void skipsMalformedPayloadsAndCountsThemWithoutFailingTheBuild() {
        List<byte[]> input = new ArrayList<>();
        input.add(payload(Announcements.of("border-a", "http://127.0.0.1:8181", "127.0.0.2")));
        input.add("{not json".getBytes(StandardCharsets.UTF_8));
        input.add(new String(
                        payload(Announcements.of("border-b", "http://127.0.0.1:8182", "127.0.0.3")),
                        StandardCharsets.UTF_8)
                .replace("\"version\":1", "\"version\":2")
                .getBytes(StandardCharsets.UTF_8));
        input.add(null);
        input.add(new byte[AnnouncementCodec.MAX_BYTES + 1]);

        RoutingSnapshot snapshot = build(input);

        assertThat(snapshot.announcements()).containsOnlyKeys(BorderId.of("border-a"));
        assertThat(snapshot.rejections())
                .extracting(RoutingSnapshot.Rejection::index)
                .containsExactly(1, 2, 3, 4);
        assertThat(snapshot.rejections().get(0).reason()).startsWith("payload: not JSON");
        assertThat(snapshot.rejections().get(1).reason()).isEqualTo("version: 2 (expected: 1)");
        assertThat(snapshot.rejections().get(2).reason()).startsWith("payload: empty");
        assertThat(snapshot.rejections().get(3).reason()).startsWith("payload: 65537 bytes");
    }

    @Test
    void keepsBothBordersOfAConflictingIpAndReportsTheConflict() {
        RoutingSnapshot snapshot = build(payloads(
                Announcements.of("border-c", "http://127.0.0.1:8183", "127.0.0.2", "127.0.0.4"),
                Announcements.of("border-a", "http://127.0.0.1:8181", "127.0.0.2"),
                Announcements.of("border-b", "http://127.0.0.1:8182", "127.0.0.3")));

        assertThat(snapshot.routes(IP2))
                .extracting(route -> route.borderId().value())
                .containsExactly("border-a", "border-c");
        assertThat(snapshot.conflicts())
                .containsExactly(Map.entry(IP2, List.of(BorderId.of("border-a"), BorderId.of("border-c"))));
    }

    @Test
    void conflictsDoNotDependOnStatus() {
        RoutingSnapshot snapshot = build(payloads(
                Announcements.of("border-a", "http://127.0.0.1:8181", "127.0.0.2")
                        .withAllIps(IpStatus.DISABLED),
                Announcements.of("border-b", "http://127.0.0.1:8182", "127.0.0.2")));

        assertThat(snapshot.conflicts()).containsOnlyKeys(IP2);
        assertThat(snapshot.eligibleRoutes(IP2))
                .extracting(route -> route.borderId().value())
                .containsExactly("border-b");
        assertThat(snapshot.status(IP2)).contains(IpStatus.ACTIVE);
    }

    @Test
    void anIpReleasedOnABorderIsNoClaimOfItsAndNoConflict() {
        Announcement old = Announcements.of("border-a", "http://127.0.0.1:8181", "127.0.0.2", "127.0.0.3");
        Announcement released = new Announcement(
                old.version(),
                old.borderId(),
                old.endpoint(),
                List.of(
                        old.ips().get(0).withheld(AnnouncedIp.RELEASED),
                        old.ips().get(1)),
                old.publishedAt(),
                old.generation());
        RoutingSnapshot snapshot = build(payloads(
                released,
                Announcements.of("border-b", "http://127.0.0.1:8182", "127.0.0.2"),
                Announcements.of("border-c", "http://127.0.0.1:8183", "127.0.0.3")));

        // The released announcement is still a route (DISABLED, shown), but only 127.0.0.3 is claimed twice.
        assertThat(snapshot.routes(IP2))
                .extracting(route -> route.borderId().value())
                .containsExactly("border-a", "border-b");
        assertThat(snapshot.conflicts())
                .containsExactly(Map.entry(IP3, List.of(BorderId.of("border-a"), BorderId.of("border-c"))));
        assertThat(released.ips().get(0).claims()).isFalse();
        assertThat(released.ips().get(0).status()).isEqualTo(IpStatus.DISABLED);
    }

    @Test
    void aBorderHoldingTwoSlotsKeepsItsNewestPublish() {
        Announcement old = Announcements.of("border-a", "http://127.0.0.1:8181", "127.0.0.2")
                .republished(6, NOW.minusSeconds(60));
        // A restarted Border starts again at generation 0, so publish time must decide, not generation.
        Announcement restarted = Announcements.of("border-a", "http://127.0.0.1:9191", "127.0.0.3")
                .republished(-1, NOW);

        RoutingSnapshot forward = build(payloads(old, restarted));
        RoutingSnapshot backward = build(payloads(restarted, old));

        assertThat(forward.announcements()).containsExactly(Map.entry(BorderId.of("border-a"), restarted));
        assertThat(backward.sameContentAs(forward)).isTrue();
        assertThat(forward.routes(IP2)).isEmpty();
        assertThat(forward.duplicateBorders()).containsExactly(BorderId.of("border-a"));
    }

    @Test
    void aDuplicateWithTheSamePublishTimeIsResolvedByGenerationThenIndependentlyOfOrder() {
        Announcement a = Announcements.of("border-a", "http://127.0.0.1:8181", "127.0.0.2");
        Announcement later = a.withAllIps(IpStatus.DRAINING).republished(0, a.publishedAt());
        Announcement twin = a.withAllIps(IpStatus.DISABLED);

        assertThat(build(payloads(later, a)).announcements()).containsValue(later);
        assertThat(build(payloads(a, later)).announcements()).containsValue(later);
        assertThat(build(payloads(a, twin)).sameContentAs(build(payloads(twin, a))))
                .isTrue();
    }

    @Test
    void anEmptyRegistryGivesAnEmptySnapshotWithoutRejections() {
        RoutingSnapshot snapshot = build(List.of());

        assertThat(snapshot.isEmpty()).isTrue();
        assertThat(snapshot.rejections()).isEmpty();
        assertThat(snapshot.conflicts()).isEmpty();
        assertThat(snapshot).isNotSameAs(RoutingSnapshot.empty());
    }

    @Test
    void buildsTheSameFromAnnouncementsAsFromTheirPayloads() {
        Announcement a = Announcements.of("border-a", "http://127.0.0.1:8181", "127.0.0.2");
        Announcement b = Announcements.of("border-b", "http://127.0.0.1:8182", "127.0.0.2", "127.0.0.3");

        assertThat(RoutingSnapshot.fromAnnouncements(List.of(a, b), NOW).sameContentAs(build(payloads(b, a))))
                .isTrue();
    }

    @Test
    void contentComparisonIgnoresSnapshotGenerationAndRejectionsButNotRepublishes() {
        Announcement a = Announcements.of("border-a", "http://127.0.0.1:8181", "127.0.0.2");
        RoutingSnapshot base = build(payloads(a));
        List<byte[]> withGarbage = new ArrayList<>(payloads(a));
        withGarbage.add("garbage".getBytes(StandardCharsets.UTF_8));

        assertThat(base.sameContentAs(base.withGeneration(9))).isTrue();
        assertThat(base.sameContentAs(build(withGarbage))).isTrue();
        assertThat(base.sameContentAs(build(payloads(a.republished(0, NOW))))).isFalse();
        assertThat(base.sameContentAs(build(payloads(a.withAllIps(IpStatus.DRAINING)))))
                .isFalse();
        assertThat(base.sameContentAs(build(List.of()))).isFalse();
    }

    @Test
    void anotherGenerationSharesTheContent() {
        RoutingSnapshot base = build(payloads(Announcements.of("border-a", "http://127.0.0.1:8181", "127.0.0.2")));

        RoutingSnapshot next = base.withGeneration(5);

        assertThat(next.generation()).isEqualTo(5);
        assertThat(next.builtAt()).isEqualTo(base.builtAt());
        assertThat(next.eligibleRoutes(IP2)).isSameAs(base.eligibleRoutes(IP2));
    }

    @Test
    void exposesOnlyUnmodifiableViews() {
        RoutingSnapshot snapshot = build(payloads(
                Announcements.of("border-a", "http://127.0.0.1:8181", "127.0.0.2"),
                Announcements.of("border-b", "http://127.0.0.1:8182", "127.0.0.2")));
        Route route = snapshot.routes(IP2).get(0);

        assertThatThrownBy(() -> snapshot.routes(IP2).add(route)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> snapshot.eligibleRoutes(IP2).clear())
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> snapshot.conflicts().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> snapshot.announcements().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> snapshot.duplicateBorders().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> snapshot.rejections().clear()).isInstanceOf(UnsupportedOperationException.class);
    }

    /** Slow: left out of the mutation run, where it would run once per mutant of the build. */
    @Test
    @Tag("slow")
    void buildsFromAThousandBordersWithOneBadPayload() {
        List<byte[]> input = new ArrayList<>(Collections.nCopies(1, "{}".getBytes(StandardCharsets.UTF_8)));
        for (int b = 0; b < 1000; b++) {
            String[] ips = new String[8];
            for (int i = 0; i < 8; i++) {
                ips[i] = "10." + (b / 250) + "." + (b % 250) + "." + i;
            }
            input.add(payload(Announcements.of("border-" + b, "http://127.0.0.1:8181", ips)));
        }

        RoutingSnapshot snapshot = build(input);

        assertThat(snapshot.announcements()).hasSize(1000);
        assertThat(snapshot.ips()).hasSize(8000);
        assertThat(snapshot.rejections()).hasSize(1);
        assertThat(snapshot.conflicts()).isEmpty();
    }

    @Test
    void describesItselfByGenerationBordersAndCounts() {
        RoutingSnapshot snapshot = build(List.of(
                        payload(Announcements.of("border-a", "http://127.0.0.1:8181", "127.0.0.2", "127.0.0.3")),
                        "{}".getBytes(StandardCharsets.UTF_8)))
                .withGeneration(4);

        assertThat(snapshot).hasToString("RoutingSnapshot{generation=4, borders=[border-a], ips=2, rejected=1}");
    }

    private static RoutingSnapshot build(List<byte[]> payloads) {
        return RoutingSnapshot.fromPayloads(payloads, CODEC, NOW);
    }
}
