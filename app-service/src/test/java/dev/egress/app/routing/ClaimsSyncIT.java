package dev.egress.app.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.egress.app.delivery.Retention;
import dev.egress.app.delivery.ydb.DeliveryTables;
import dev.egress.app.tenants.TenantPolicyStore;
import dev.egress.app.tenants.TenantsProperties;
import dev.egress.discovery.registry.AnnouncedIp;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.registry.RoutingSnapshot;
import dev.egress.discovery.registry.RoutingTable;
import dev.egress.discovery.registry.select.BorderSelectors;
import dev.egress.discovery.registry.testing.MutableClock;
import dev.egress.ydb.coordination.EmbeddedCoordinationNode;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The standing claims kept in step with the claims table by {@link ClaimsSync}, for two Apps (two routers, each with
 * its own routing table) on one claims table of the real embedded YDB node. Iterations are run by the test, in the
 * order it states, instead of by the timer.
 */
class ClaimsSyncIT {

    private static final EgressIp IP = EgressIp.of("127.0.0.3");
    private static final BorderId A = BorderId.of("border-a");
    private static final BorderId B = BorderId.of("border-b");
    private static EmbeddedCoordinationNode node;

    @TempDir
    Path dir;

    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-06T10:00:00Z"));
    private final List<AutoCloseable> opened = new ArrayList<>();
    private TenantPolicyStore tenants;
    private String prefix;

    /** One App: its routing table, router, meters and claims loop. */
    private record App(RoutingTable table, EgressRouter router, ClaimsSync sync, SimpleMeterRegistry meters) {
        void sees(Announcement... live) {
            table.offer(RoutingSnapshot.fromAnnouncements(List.of(live), Instant.now()));
        }

        Map<EgressIp, List<BorderId>> conflicts() {
            return router.conflicts();
        }
    }

    /** The claims table with a switch that makes every call fail, as an unreachable store does. */
    private static final class Switchable implements ClaimRecords {
        private final ClaimRecords table;
        private volatile boolean down;

        Switchable(ClaimRecords table) {
            this.table = table;
        }

        private void check() {
            if (down) {
                throw new ClaimStoreException("claims table: unreachable", new IOException("connection refused"));
            }
        }

        @Override
        public Set<Claim> readAll() {
            check();
            return table.readAll();
        }

        @Override
        public void upsert(Collection<Claim> claims, Instant seenAt) {
            check();
            table.upsert(claims, seenAt);
        }

        @Override
        public void delete(Collection<Claim> claims) {
            check();
            table.delete(claims);
        }

        @Override
        public void keepOnly(Claim owner, Instant seenAt) {
            check();
            table.keepOnly(owner, seenAt);
        }
    }

    @BeforeAll
    static void startNode() throws Exception {
        node = EmbeddedCoordinationNode.start(0);
    }

    @AfterAll
    static void stopNode() throws Exception {
        node.close();
    }

    @BeforeEach
    void setUp() throws IOException {
        Path file = Files.writeString(dir.resolve("t.yaml"), """
                tenants:
                  - id: acme
                    dedicatedIps: [127.0.0.3]
                """);
        tenants = new TenantPolicyStore(
                new TenantsProperties(file, Duration.ofSeconds(60)), new SimpleMeterRegistry(), clock);
        prefix = "c" + UUID.randomUUID().toString().replace("-", "").substring(0, 12) + "_";
    }

    @AfterEach
    void tearDown() throws Exception {
        for (AutoCloseable c : opened) {
            c.close();
        }
        tenants.close();
    }

    private ClaimRecords table() {
        DeliveryTables tables = DeliveryTables.open(node.connectionString(), prefix, Retention.DEFAULT, 2);
        opened.add(tables);
        return tables.claims();
    }

    private App app(ClaimRecords records) {
        RoutingTable table = new RoutingTable(clock);
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        RoutingProperties properties = RoutingDefaults.properties();
        EgressRouter router = new EgressRouter(
                table, tenants, BorderSelectors.byDefault(), BorderSelectors.byDefault(), properties, meters);
        ClaimsSync sync = new ClaimsSync(router, records, properties.claimsSyncInterval(), clock, meters);
        opened.add(sync);
        return new App(table, router, sync, meters);
    }

    private static Announcement claiming(BorderId border, EgressIp... ips) {
        List<AnnouncedIp> announced = new ArrayList<>();
        for (EgressIp ip : ips) {
            announced.add(new AnnouncedIp(ip, IpStatus.ACTIVE));
        }
        return Announcement.initial(border, URI.create("http://127.0.0.1:1"), announced, Instant.now());
    }

    private static Announcement releasing(BorderId border, EgressIp released, EgressIp... claimed) {
        List<AnnouncedIp> announced = new ArrayList<>();
        announced.add(new AnnouncedIp(released, IpStatus.ACTIVE).withheld(AnnouncedIp.RELEASED));
        for (EgressIp ip : claimed) {
            announced.add(new AnnouncedIp(ip, IpStatus.ACTIVE));
        }
        return Announcement.initial(border, URI.create("http://127.0.0.1:1"), announced, Instant.now());
    }

    @Test
    void anAppThatStartsWhileTheOwnerIsAbsentLearnsItsClaimAndAMoveOnItEndsTheClaimOnTheOtherApp() throws Exception {
        ClaimRecords table = table();
        App first = app(table());
        first.sees(claiming(A, IP));
        first.sync().sync();
        assertThat(table.readAll()).containsExactly(new Claim(IP, A));
        first.sees();
        first.sync().sync();

        // A new App sees only the second claimant: without the table it would route acme through it.
        App second = app(table());
        second.sees(claiming(B, IP));
        assertThat(second.router().resolve("acme").candidates())
                .singleElement()
                .satisfies(route -> assertThat(route.borderId()).isEqualTo(B));

        second.sync().sync();

        assertThat(second.conflicts()).containsEntry(IP, List.of(A, B));
        assertThatThrownBy(() -> second.router().resolve("acme"))
                .isInstanceOfSatisfying(
                        NoEgressAvailableException.class,
                        e -> assertThat(e.reason()).isEqualTo(NoEgressReason.IP_CONFLICT));
        assertThat(table.readAll()).containsExactlyInAnyOrder(new Claim(IP, A), new Claim(IP, B));

        first.sees(claiming(B, IP));
        first.sync().sync();
        assertThat(first.conflicts()).containsEntry(IP, List.of(A, B));

        second.sync().recordMove(IP, B).get();

        assertThat(second.conflicts()).isEmpty();
        assertThat(table.readAll()).containsExactly(new Claim(IP, B));
        first.sync().sync();
        assertThat(first.conflicts()).isEmpty();
        assertThat(first.router().resolve("acme").candidates())
                .singleElement()
                .satisfies(route -> assertThat(route.borderId()).isEqualTo(B));
        // Remembered, but lost by the table: neither App brings it back.
        first.sync().sync();
        second.sync().sync();
        assertThat(table.readAll()).containsExactly(new Claim(IP, B));
        assertThat(first.conflicts()).isEmpty();
        assertThat(second.conflicts()).isEmpty();
    }

    @Test
    void aClaimTakenOffALiveBorderLeavesTheTable() {
        EgressIp four = EgressIp.of("127.0.0.4");
        EgressIp five = EgressIp.of("127.0.0.5");
        ClaimRecords table = table();
        App app = app(table());
        app.sees(claiming(A, IP, four));
        app.sync().sync();
        assertThat(table.readAll()).containsExactlyInAnyOrder(new Claim(IP, A), new Claim(four, A));

        // Released on its Border (an operator's move elsewhere): the row goes.
        app.sees(releasing(A, IP, four), claiming(B, IP));
        app.sync().sync();

        assertThat(table.readAll()).containsExactlyInAnyOrder(new Claim(IP, B), new Claim(four, A));
        assertThat(app.conflicts()).isEmpty();

        // Out of its Border's configuration: the same.
        app.sees(claiming(A, five), claiming(B, IP));
        app.sync().sync();

        assertThat(table.readAll()).containsExactlyInAnyOrder(new Claim(IP, B), new Claim(five, A));
    }

    @Test
    void anUnreachableTableKeepsTheClaimsInMemoryCountsTheFailureAndRefusesAMove() {
        ClaimRecords table = table();
        table.upsert(List.of(new Claim(IP, A)), clock.instant());
        Switchable store = new Switchable(table());
        App app = app(store);
        app.sees(claiming(B, IP));
        app.sync().sync();
        assertThat(app.conflicts()).containsEntry(IP, List.of(A, B));
        assertThat(app.meters().get("egress.routing.claims.sync.age").gauge().value())
                .isZero();

        store.down = true;
        clock.advance(Duration.ofSeconds(5));
        app.sync().sync();

        assertThat(app.conflicts()).containsEntry(IP, List.of(A, B));
        assertThat(app.meters()
                        .get("egress.routing.claims.sync.failures")
                        .counter()
                        .count())
                .isEqualTo(1.0);
        assertThat(app.meters().get("egress.routing.claims.sync.age").gauge().value())
                .isEqualTo(5.0);
        assertThatThrownBy(() -> app.sync().recordMove(IP, B).get())
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(ClaimStoreException.class);
        assertThat(app.conflicts()).containsEntry(IP, List.of(A, B));

        store.down = false;
        app.sync().sync();
        assertThat(app.conflicts()).containsEntry(IP, List.of(A, B));
        assertThat(app.meters().get("egress.routing.claims.sync.age").gauge().value())
                .isZero();
    }

    @Test
    void withoutTheTableAMoveEndsTheClaimsInThisAppsMemory() {
        App app = app(null);
        app.sees(claiming(A, IP));
        app.sees(claiming(B, IP));
        assertThat(app.conflicts()).containsEntry(IP, List.of(A, B));
        app.sync().start();

        app.sync().recordMove(IP, B).join();

        assertThat(app.conflicts()).isEmpty();
        assertThat(app.meters().find("egress.routing.claims.sync.age").gauge()).isNull();
    }
}
