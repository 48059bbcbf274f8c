package dev.egress.app.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.egress.app.tenants.TenantPolicyStore;
import dev.egress.app.tenants.TenantsProperties;
import dev.egress.app.tenants.UnknownTenantException;
import dev.egress.discovery.registry.AnnouncedIp;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.registry.Route;
import dev.egress.discovery.registry.RoutingSnapshot;
import dev.egress.discovery.registry.RoutingTable;
import dev.egress.discovery.registry.select.BorderSelectors;
import dev.egress.discovery.registry.testing.MutableClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EgressRouterTest {

    @TempDir
    Path dir;

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-30T10:00:00Z"));
    private final RoutingTable table = new RoutingTable(clock);
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private TenantPolicyStore tenants;

    @BeforeEach
    void setUp() throws Exception {
        Path file = Files.writeString(dir.resolve("t.yaml"), """
                sharedPool: [127.0.0.8]
                tenants:
                  - id: acme
                    dedicatedIps: [127.0.0.2, 127.0.0.3]
                  - id: small
                """);
        tenants = new TenantPolicyStore(
                new TenantsProperties(file, Duration.ofSeconds(60)), new SimpleMeterRegistry(), clock);
    }

    @AfterEach
    void tearDown() {
        tenants.close();
    }

    private EgressRouter router(RoutingProperties.SharedWhenStale sharedWhenStale) {
        RoutingProperties properties = new RoutingProperties(
                "lowest-border-id",
                "lowest-border-id",
                Map.of(),
                Duration.ofSeconds(30),
                sharedWhenStale,
                3,
                Duration.ofSeconds(30),
                Duration.ofMillis(500),
                Duration.ofSeconds(5),
                Duration.ofSeconds(1));
        return new EgressRouter(
                table, tenants, BorderSelectors.byDefault(), BorderSelectors.byDefault(), properties, meters);
    }

    private static Announcement border(String id, String... ipsAndStatus) {
        List<AnnouncedIp> ips = new ArrayList<>();
        for (int i = 0; i < ipsAndStatus.length; i += 2) {
            ips.add(new AnnouncedIp(EgressIp.of(ipsAndStatus[i]), IpStatus.valueOf(ipsAndStatus[i + 1])));
        }
        return Announcement.initial(BorderId.of(id), URI.create("http://127.0.0.1:1"), ips, Instant.now());
    }

    private void publish(Announcement... announcements) {
        table.offer(RoutingSnapshot.fromAnnouncements(List.of(announcements), clock.instant()));
    }

    @Test
    void dedicatedCandidatesAreOnlyTheTenantsActiveIps() {
        EgressRouter router = router(RoutingProperties.SharedWhenStale.SERVE);
        publish(
                border("a", "127.0.0.2", "DRAINING", "127.0.0.8", "ACTIVE", "127.0.0.9", "ACTIVE"),
                border("b", "127.0.0.3", "ACTIVE"));

        Resolution acme = router.resolve("acme");
        assertThat(acme.candidates()).extracting(r -> r.ip().value()).containsExactly("127.0.0.3");
        Resolution small = router.resolve("small");
        assertThat(small.candidates()).extracting(r -> r.ip().value()).containsExactly("127.0.0.8");
    }

    @Test
    void nothingLiveIs503AndUnknownIs404() {
        EgressRouter router = router(RoutingProperties.SharedWhenStale.SERVE);
        publish(border("a", "127.0.0.8", "ACTIVE", "127.0.0.2", "DISABLED"));

        assertThatThrownBy(() -> router.resolve("acme"))
                .isInstanceOf(NoEgressAvailableException.class)
                .satisfies(e ->
                        assertThat(((NoEgressAvailableException) e).reason()).isEqualTo(NoEgressReason.NO_LIVE_IP));
        assertThatThrownBy(() -> router.resolve("ghost")).isInstanceOf(UnknownTenantException.class);
    }

    @Test
    void aDedicatedIpAnnouncedActiveByTwoBordersIsLeftOutAndTheTenantUsesItsOtherIps() {
        EgressRouter router = router(RoutingProperties.SharedWhenStale.SERVE);
        publish(
                border("a", "127.0.0.2", "ACTIVE"),
                border("b", "127.0.0.3", "ACTIVE"),
                border("c", "127.0.0.2", "ACTIVE"));

        Resolution acme = router.resolve("acme");

        assertThat(acme.candidates())
                .extracting(r -> r.ip().value() + "@" + r.borderId().value())
                .containsExactly("127.0.0.3@b");
        assertThat(acme.conflicted()).extracting(EgressIp::value).containsExactly("127.0.0.2");
        assertThat(acme.routes(EgressIp.of("127.0.0.3"))).isTrue();
        assertThat(acme.routes(EgressIp.of("127.0.0.2"))).isFalse();
        assertThat(acme.allowedIps()).extracting(EgressIp::value).containsExactly("127.0.0.2", "127.0.0.3");
        assertThat(meters.get("egress.routing.ips.conflicts.dedicated").gauge().value())
                .isEqualTo(1.0);
    }

    @Test
    void aDedicatedTenantWhoseOnlyActiveIpsAreConflictedFailsClosedWithIpConflict() {
        EgressRouter router = router(RoutingProperties.SharedWhenStale.SERVE);
        publish(border("a", "127.0.0.2", "ACTIVE", "127.0.0.3", "DISABLED"), border("c", "127.0.0.2", "ACTIVE"));

        assertThatThrownBy(() -> router.resolve("acme")).isInstanceOfSatisfying(NoEgressAvailableException.class, e -> {
            assertThat(e.reason()).isEqualTo(NoEgressReason.IP_CONFLICT);
            assertThat(e.reason().code()).isEqualTo("ip-conflict");
            assertThat(e.getMessage()).contains("acme").contains("127.0.0.2");
        });
        assertThat(router.peek("acme").candidates()).isEmpty();
    }

    @Test
    void aSecondClaimIsAConflictWhateverTheOwnersStatus() {
        // A draining (as before a restart) or disabled owner still owns its dedicated IP: the second claimant
        // never takes the tenant's traffic meanwhile, and the alert does not clear. The IP moves only when the
        // old Border stops claiming it (an operator's hand: its configuration, or a release through App's move).
        EgressRouter router = router(RoutingProperties.SharedWhenStale.SERVE);
        for (String ownerStatus : List.of("DRAINING", "DISABLED")) {
            publish(
                    border("a", "127.0.0.2", ownerStatus, "127.0.0.3", "ACTIVE"),
                    border("b", "127.0.0.2", "ACTIVE"),
                    border("c", "127.0.0.2", "DISABLED"));

            Resolution acme = router.resolve("acme");

            assertThat(acme.candidates())
                    .extracting(r -> r.ip().value() + "@" + r.borderId().value())
                    .containsExactly("127.0.0.3@a");
            assertThat(acme.conflicted()).extracting(EgressIp::value).containsExactly("127.0.0.2");
            assertThat(meters.get("egress.routing.ips.conflicts.dedicated")
                            .gauge()
                            .value())
                    .isEqualTo(1.0);
        }
    }

    @Test
    void aSecondClaimWhileTheOwnerHoldsNoSlotIsAConflictUntilAnOperatorMovesTheIp() {
        // The owner restarts or crashed: its slot is gone, so the snapshot holds the second claim alone. The
        // owner's claim still stands; the IP carries nothing and the alert stays until an operator's hand.
        EgressRouter router = router(RoutingProperties.SharedWhenStale.SERVE);
        publish(border("a", "127.0.0.2", "ACTIVE", "127.0.0.3", "ACTIVE"));
        assertThat(router.resolve("acme").conflicted()).isEmpty();

        publish(border("b", "127.0.0.2", "ACTIVE"));

        assertThatThrownBy(() -> router.resolve("acme")).isInstanceOfSatisfying(NoEgressAvailableException.class, e -> {
            assertThat(e.reason().code()).isEqualTo("ip-conflict");
        });
        assertThat(router.peek("acme").conflicted()).extracting(EgressIp::value).containsExactly("127.0.0.2");
        assertThat(router.conflicts())
                .containsEntry(EgressIp.of("127.0.0.2"), List.of(BorderId.of("a"), BorderId.of("b")));
        assertThat(meters.get("egress.routing.ips.conflicts.dedicated").gauge().value())
                .isEqualTo(1.0);

        router.operatorMoved(EgressIp.of("127.0.0.2"), BorderId.of("b"));

        assertThat(router.resolve("acme").candidates())
                .extracting(r -> r.ip().value() + "@" + r.borderId().value())
                .containsExactly("127.0.0.2@b");
        assertThat(router.conflicts()).isEmpty();
        assertThat(meters.get("egress.routing.ips.conflicts.dedicated").gauge().value())
                .isZero();
    }

    @Test
    void anAbsentOwnersClaimFromTheClaimsTableMakesTheSecondClaimantAConflictUntilTheTableLosesIt() {
        // This App never saw border a; another App stored its claim of 127.0.0.2 before a left.
        EgressRouter router = router(RoutingProperties.SharedWhenStale.SERVE);
        publish(border("b", "127.0.0.2", "ACTIVE", "127.0.0.3", "ACTIVE"));
        assertThat(router.resolve("acme").candidates()).hasSize(2);
        Claim ownerA = new Claim(EgressIp.of("127.0.0.2"), BorderId.of("a"));

        router.storedClaims(Set.of(ownerA), Set.of());

        assertThat(router.resolve("acme").candidates())
                .extracting(r -> r.ip().value() + "@" + r.borderId().value())
                .containsExactly("127.0.0.3@b");
        assertThat(router.conflicts())
                .containsEntry(EgressIp.of("127.0.0.2"), List.of(BorderId.of("a"), BorderId.of("b")));
        assertThat(meters.get("egress.routing.ips.conflicts.dedicated").gauge().value())
                .isEqualTo(1.0);

        // An operator's move on another App deleted the row.
        router.storedClaims(Set.of(), Set.of(ownerA));

        assertThat(router.resolve("acme").candidates())
                .extracting(r -> r.ip().value() + "@" + r.borderId().value())
                .containsExactly("127.0.0.2@b", "127.0.0.3@b");
        assertThat(router.conflicts()).isEmpty();
        assertThat(meters.get("egress.routing.ips.conflicts.dedicated").gauge().value())
                .isZero();
    }

    @Test
    void anOwnerBackWithoutTheIpInItsConfigurationEndsItsClaim() {
        EgressRouter router = router(RoutingProperties.SharedWhenStale.SERVE);
        publish(border("a", "127.0.0.2", "ACTIVE", "127.0.0.3", "ACTIVE"));
        publish(border("b", "127.0.0.2", "ACTIVE"));
        assertThat(router.peek("acme").conflicted()).isNotEmpty();

        publish(border("a", "127.0.0.3", "ACTIVE"), border("b", "127.0.0.2", "ACTIVE"));

        assertThat(router.resolve("acme").candidates())
                .extracting(r -> r.ip().value() + "@" + r.borderId().value())
                .containsExactly("127.0.0.2@b", "127.0.0.3@a");
        assertThat(router.conflicts()).isEmpty();
    }

    @Test
    void anOwnerThatComesBackStillClaimingKeepsTheConflictAndItsIpsAloneAreItsOwn() {
        EgressRouter router = router(RoutingProperties.SharedWhenStale.SERVE);
        publish(border("a", "127.0.0.2", "ACTIVE", "127.0.0.3", "ACTIVE"));
        publish();
        publish(border("a", "127.0.0.2", "ACTIVE", "127.0.0.3", "ACTIVE"));

        assertThat(router.resolve("acme").conflicted()).isEmpty();

        publish(border("b", "127.0.0.2", "ACTIVE"));
        publish(border("a", "127.0.0.2", "ACTIVE", "127.0.0.3", "ACTIVE"), border("b", "127.0.0.2", "ACTIVE"));

        assertThat(router.resolve("acme").candidates())
                .extracting(r -> r.ip().value() + "@" + r.borderId().value())
                .containsExactly("127.0.0.3@a");
    }

    @Test
    void anIpTheOldBorderNoLongerAnnouncesIsTheNewOnesAlone() {
        EgressRouter router = router(RoutingProperties.SharedWhenStale.SERVE);
        publish(border("a", "127.0.0.3", "ACTIVE"), border("b", "127.0.0.2", "ACTIVE"));

        Resolution acme = router.resolve("acme");

        assertThat(acme.candidates())
                .extracting(r -> r.ip().value() + "@" + r.borderId().value())
                .containsExactly("127.0.0.2@b", "127.0.0.3@a");
        assertThat(acme.conflicted()).isEmpty();
        assertThat(meters.get("egress.routing.ips.conflicts.dedicated").gauge().value())
                .isZero();
    }

    @Test
    void anIpAnOperatorReleasedOnTheOldBorderIsTheNewOnesAlone() {
        EgressRouter router = router(RoutingProperties.SharedWhenStale.SERVE);
        Announcement old = border("a", "127.0.0.2", "ACTIVE", "127.0.0.3", "ACTIVE");
        Announcement released = new Announcement(
                old.version(),
                old.borderId(),
                old.endpoint(),
                List.of(
                        old.ips().get(0).withheld(AnnouncedIp.RELEASED),
                        old.ips().get(1)),
                old.publishedAt(),
                old.generation());
        publish(released, border("b", "127.0.0.2", "ACTIVE"));

        Resolution acme = router.resolve("acme");

        assertThat(acme.candidates())
                .extracting(r -> r.ip().value() + "@" + r.borderId().value())
                .containsExactly("127.0.0.2@b", "127.0.0.3@a");
        assertThat(acme.conflicted()).isEmpty();
        assertThat(meters.get("egress.routing.ips.conflicts.dedicated").gauge().value())
                .isZero();
    }

    @Test
    void aSharedPoolIpOnTwoBordersKeepsBothRoutes() {
        EgressRouter router = router(RoutingProperties.SharedWhenStale.SERVE);
        publish(border("a", "127.0.0.8", "ACTIVE"), border("b", "127.0.0.8", "ACTIVE"));

        Resolution small = router.resolve("small");

        assertThat(small.candidates()).extracting(r -> r.borderId().value()).containsExactly("a", "b");
        assertThat(small.conflicted()).isEmpty();
        assertThat(meters.get("egress.routing.ips.conflicts.dedicated").gauge().value())
                .isZero();
    }

    @Test
    void theSharedPoolResolvesAsATenantOfItsOwnWithTheSharedRules() {
        EgressRouter serving = router(RoutingProperties.SharedWhenStale.SERVE);
        EgressRouter failing = router(RoutingProperties.SharedWhenStale.FAIL);
        assertThatThrownBy(serving::resolveSharedPool)
                .isInstanceOf(NoEgressAvailableException.class)
                .satisfies(e ->
                        assertThat(((NoEgressAvailableException) e).reason()).isEqualTo(NoEgressReason.NO_LIVE_IP));
        publish(border("a", "127.0.0.2", "ACTIVE", "127.0.0.8", "ACTIVE"));

        Resolution pool = serving.resolveSharedPool();

        assertThat(pool.tenant().id()).isEqualTo(EgressRouter.SHARED_POOL);
        assertThat(pool.tenant().dedicated()).isFalse();
        assertThat(pool.allowedIps()).extracting(EgressIp::value).containsExactly("127.0.0.8");
        assertThat(pool.candidates()).extracting(r -> r.ip().value()).containsExactly("127.0.0.8");
        assertThat(pool.candidates()).isSameAs(serving.resolve("small").candidates());
        clock.advance(Duration.ofSeconds(31));
        assertThat(serving.resolveSharedPool().candidates()).hasSize(1);
        assertThatThrownBy(failing::resolveSharedPool)
                .isInstanceOf(NoEgressAvailableException.class)
                .satisfies(e ->
                        assertThat(((NoEgressAvailableException) e).reason()).isEqualTo(NoEgressReason.ROUTING_STALE));
    }

    @Test
    void pastMaxStalenessDedicatedFailsClosedAndSharedFollowsTheSetting() {
        EgressRouter serving = router(RoutingProperties.SharedWhenStale.SERVE);
        EgressRouter failing = router(RoutingProperties.SharedWhenStale.FAIL);
        publish(border("a", "127.0.0.2", "ACTIVE", "127.0.0.8", "ACTIVE"));
        clock.advance(Duration.ofSeconds(31));

        assertThatThrownBy(() -> serving.resolve("acme"))
                .isInstanceOf(NoEgressAvailableException.class)
                .satisfies(e ->
                        assertThat(((NoEgressAvailableException) e).reason()).isEqualTo(NoEgressReason.ROUTING_STALE));
        assertThat(serving.resolve("small").candidates()).hasSize(1);
        assertThatThrownBy(() -> failing.resolve("small")).isInstanceOf(NoEgressAvailableException.class);
    }

    @Test
    void beforeTheFirstSnapshotDedicatedTrafficIsRefused() {
        EgressRouter router = router(RoutingProperties.SharedWhenStale.SERVE);
        assertThatThrownBy(() -> router.resolve("acme"))
                .isInstanceOf(NoEgressAvailableException.class)
                .satisfies(e -> assertThat(((NoEgressAvailableException) e).reason())
                        .isEqualTo(NoEgressReason.ROUTING_NOT_READY));
    }

    @Test
    void choiceSkipsTriedAndUnhealthyBordersAndPanicsWhenAllAreUnhealthy() {
        EgressRouter router = router(RoutingProperties.SharedWhenStale.SERVE);
        // Three Borders on one shared-pool IP: a dedicated IP on two Borders would fail closed instead.
        publish(
                border("a", "127.0.0.8", "ACTIVE"),
                border("b", "127.0.0.8", "ACTIVE"),
                border("c", "127.0.0.8", "ACTIVE"));
        Resolution acme = router.resolve("small");
        BorderId a = BorderId.of("a");
        BorderId b = BorderId.of("b");
        BorderId c = BorderId.of("c");

        assertThat(router.choose(acme, 1, Set.of(), x -> true).borderId()).isEqualTo(a);
        assertThat(router.choose(acme, 1, Set.of(a), x -> true).borderId()).isEqualTo(b);
        assertThat(router.choose(acme, 1, Set.of(), x -> !x.equals(a)).borderId())
                .isEqualTo(b);
        Route panic = router.choose(acme, 1, Set.of(b, c), x -> false);
        assertThat(panic.borderId()).isEqualTo(a);
        assertThat(router.choose(acme, 1, Set.of(a, b, c), x -> true)).isNull();
    }

    @Test
    void followsSnapshotAndPolicyChangesImmediately() throws Exception {
        EgressRouter router = router(RoutingProperties.SharedWhenStale.SERVE);
        publish(border("a", "127.0.0.2", "ACTIVE"));
        assertThat(router.resolve("acme").candidates()).hasSize(1);
        publish(border("a", "127.0.0.2", "DRAINING"));
        assertThatThrownBy(() -> router.resolve("acme")).isInstanceOf(NoEgressAvailableException.class);

        Files.writeString(tenants.state().file(), "sharedPool: [127.0.0.8]\ntenants: [{id: late}]\n");
        tenants.refresh();
        assertThatThrownBy(() -> router.resolve("acme")).isInstanceOf(UnknownTenantException.class);
        assertThat(router.peek("late")).isNotNull();
    }

    @Test
    void anUnknownTenantSaysWhenTheTenantsFileWasRefusedAndTheLastGoodPolicyIsInUse() throws Exception {
        EgressRouter router = router(RoutingProperties.SharedWhenStale.SERVE);
        publish(border("a", "127.0.0.8", "ACTIVE"));
        assertThatThrownBy(() -> router.resolve("newco"))
                .isInstanceOf(UnknownTenantException.class)
                .hasMessage("tenant 'newco' is not known");

        // The operator adds newco but breaks the file: the 404 must say the new file was not applied.
        Files.writeString(
                dir.resolve("t.yaml"), "sharedPool: [127.0.0.8]\ntenants: [{id: newco, dedicatedIps: [300.0.0.1]}]\n");
        tenants.refresh();

        assertThatThrownBy(() -> router.resolve("newco"))
                .isInstanceOf(UnknownTenantException.class)
                .hasMessageContaining("tenants file t.yaml was refused")
                .hasMessageContaining("last good policy")
                .satisfies(e ->
                        assertThat(((UnknownTenantException) e).properties()).containsEntry("policyStale", true));
    }

    @Test
    void aSnapshotExactlyAsOldAsMaxStalenessStillServesDedicatedTenants() {
        EgressRouter router = router(RoutingProperties.SharedWhenStale.FAIL);
        publish(border("a", "127.0.0.2", "ACTIVE", "127.0.0.8", "ACTIVE"));
        clock.advance(Duration.ofSeconds(30));

        assertThat(router.isStale()).isFalse();
        assertThat(router.resolve("acme").candidates()).hasSize(1);
        clock.advance(Duration.ofMillis(1));
        assertThat(router.isStale()).isTrue();
    }

    @Test
    void aStaleRefusalNamesTheTenantClassAndTheRetryAfter() {
        EgressRouter router = router(RoutingProperties.SharedWhenStale.FAIL);
        publish(border("a", "127.0.0.2", "ACTIVE", "127.0.0.8", "ACTIVE"));
        clock.advance(Duration.ofMinutes(1));

        assertThatThrownBy(() -> router.resolve("acme")).isInstanceOfSatisfying(NoEgressAvailableException.class, e -> {
            assertThat(e.getMessage()).isEqualTo("routing data is older than PT30S; dedicated traffic fails closed");
            assertThat(e.retryAfter()).isEqualTo(Duration.ofSeconds(5));
        });
        assertThatThrownBy(() -> router.resolve("small"))
                .isInstanceOfSatisfying(
                        NoEgressAvailableException.class,
                        e -> assertThat(e.getMessage())
                                .isEqualTo("routing data is older than PT30S; shared traffic fails closed"));
        assertThat(router.peek("acme").tenantClass()).isEqualTo("dedicated");
        assertThat(router.peek("small").tenantClass()).isEqualTo("shared");
    }

    @Test
    void countsEachPanicSelection() {
        EgressRouter router = router(RoutingProperties.SharedWhenStale.SERVE);
        publish(border("a", "127.0.0.2", "ACTIVE"), border("b", "127.0.0.3", "ACTIVE"));
        Resolution acme = router.resolve("acme");

        router.choose(acme, 1, Set.of(), x -> !x.equals(BorderId.of("a")));
        assertThat(meters.get("egress.routing.panic").counter().count()).isZero();
        router.choose(acme, 1, Set.of(), x -> false);
        assertThat(meters.get("egress.routing.panic").counter().count()).isEqualTo(1);
    }

    @Test
    void peekShowsATenantWithoutCandidatesAndNothingForAnUnknownOne() {
        EgressRouter router = router(RoutingProperties.SharedWhenStale.SERVE);
        publish(border("a", "127.0.0.8", "ACTIVE"));

        assertThat(router.peek("acme").candidates()).isEmpty();
        assertThat(router.peek("acme").allowedIps())
                .extracting(EgressIp::value)
                .containsExactly("127.0.0.2", "127.0.0.3");
        assertThat(router.peek("ghost")).isNull();
        assertThat(router.strategy()).isEqualTo("lowest-border-id");
    }

    @Test
    void namesTheStrategyOfDedicatedAndOfSharedTenantsApart() {
        RoutingProperties properties = RoutingDefaults.properties();
        EgressRouter router = new EgressRouter(
                table,
                tenants,
                BorderSelectors.byDefault(),
                BorderSelectors.byName(BorderSelectors.RENDEZVOUS, Map.of()),
                properties,
                meters);
        assertThat(router.strategy()).isEqualTo(BorderSelectors.LOWEST_BORDER_ID);
        assertThat(router.sharedStrategy()).isEqualTo(BorderSelectors.RENDEZVOUS);
    }

    @Test
    void aListenerThatRunsBeforeTheRoutersOwnAlreadyRoutesOnTheNewSnapshot() {
        AtomicReference<EgressRouter> router = new AtomicReference<>();
        List<Integer> seen = new ArrayList<>();
        table.addListener(
                snapshot -> seen.add(router.get().resolve("small").candidates().size()));
        router.set(router(RoutingProperties.SharedWhenStale.SERVE));

        publish(border("a", "127.0.0.8", "ACTIVE"));
        publish(border("a", "127.0.0.8", "ACTIVE"), border("b", "127.0.0.8", "ACTIVE"));

        assertThat(seen).containsExactly(1, 2);
    }

    @Test
    void aPolicyListenerThatRunsBeforeTheRoutersOwnAlreadyRoutesOnTheNewPolicy() throws Exception {
        AtomicReference<EgressRouter> router = new AtomicReference<>();
        List<Boolean> knowsLate = new ArrayList<>();
        tenants.addListener(policy -> knowsLate.add(router.get().peek("late") != null));
        router.set(router(RoutingProperties.SharedWhenStale.SERVE));

        Files.writeString(tenants.state().file(), "sharedPool: [127.0.0.8]\ntenants: [{id: late}]\n");
        tenants.refresh();

        assertThat(knowsLate).containsExactly(true);
    }
}
