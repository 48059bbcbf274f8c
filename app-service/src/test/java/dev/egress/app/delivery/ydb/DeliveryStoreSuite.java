package dev.egress.app.delivery.ydb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.egress.app.delivery.Attempt;
import dev.egress.app.delivery.Backlog;
import dev.egress.app.delivery.DeliveryPage;
import dev.egress.app.delivery.DeliveryRecord;
import dev.egress.app.delivery.DeliveryStatus;
import dev.egress.app.delivery.DeliveryStore;
import dev.egress.app.delivery.DeliveryStore.Accepted;
import dev.egress.app.delivery.IdempotencyConflictException;
import dev.egress.app.delivery.Lease;
import dev.egress.app.delivery.LeaseLostException;
import dev.egress.app.delivery.NewDelivery;
import dev.egress.app.delivery.NextAttempt;
import dev.egress.app.delivery.NotRetryableException;
import dev.egress.app.delivery.Retention;
import dev.egress.app.routing.Claim;
import dev.egress.app.routing.ClaimRecords;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The delivery store through the real SDK against a server the subclass names: the embedded node in every build,
 * real YDB where one is reachable. Each test has its own tables (a random prefix) and drops them. Two
 * {@link DeliveryTables} on one database stand for two Apps.
 */
abstract class DeliveryStoreSuite {

    private static final Duration LEASE = Duration.ofSeconds(30);
    /**
     * The tests' "now": the present, so that the records' retention (delivered + 7 days, dead + 30 days) lies in the
     * future and the node's TTL sweep does not take them in the middle of a test (a fixed date in the past made a
     * dead record vanish whenever a sweep ran, and the paging test lose it); microseconds, as YDB keeps them.
     */
    private static final Instant T0 = Instant.now().truncatedTo(ChronoUnit.MICROS);

    private final List<DeliveryTables> opened = new ArrayList<>();
    private String prefix;
    private DeliveryStore store;

    /** The SDK connection string of the server under test. */
    protected abstract String connectionString();

    /** Does the server sweep TTL within seconds (the embedded node) rather than within 15 min or more (YDB)? */
    protected boolean fastTtl() {
        return false;
    }

    @BeforeEach
    void open() {
        prefix = "t" + UUID.randomUUID().toString().replace("-", "").substring(0, 12) + "_";
        store = app(Retention.DEFAULT);
    }

    @AfterEach
    void close() {
        if (!opened.isEmpty()) {
            opened.get(0).dropTables();
        }
        opened.forEach(DeliveryTables::close);
    }

    /** Another App on the same tables. */
    private DeliveryStore app(Retention retention) {
        DeliveryTables tables = DeliveryTables.open(connectionString(), prefix, retention, 4);
        opened.add(tables);
        return tables.store();
    }

    private static NewDelivery delivery(String key, String body, int bucket) {
        return new NewDelivery(
                UUID.randomUUID().toString(),
                "acme",
                key,
                "sha256:" + body.hashCode(),
                body.getBytes(StandardCharsets.UTF_8),
                bucket);
    }

    private static Attempt attempt(Instant at, String outcome, Integer status) {
        return new Attempt(at, "127.0.0.3", "border-a", outcome, null, status, Duration.ofMillis(42), "x".repeat(5000));
    }

    @Test
    void acceptStoresARecordLeasedToTheAcceptingApp() {
        NewDelivery d = delivery("k1", "{\"a\":1}", 0);

        Accepted accepted = store.accept(d, "app-1", T0, LEASE);

        assertThat(accepted.created()).isTrue();
        DeliveryRecord record = accepted.record();
        assertThat(record.id()).isEqualTo(d.id());
        assertThat(record.status()).isEqualTo(DeliveryStatus.DELIVERING);
        assertThat(record.lease()).isEqualTo(new Lease("app-1", T0.plus(LEASE)));
        assertThat(record.series()).isEqualTo(1);
        assertThat(record.createdAt()).isEqualTo(T0);
        DeliveryRecord read = store.get(d.id()).orElseThrow();
        assertThat(read).isEqualTo(record);
        assertThat(read.request()).isEqualTo(d.request());
        assertThat(read.fingerprint()).isEqualTo(d.fingerprint());
        assertThat(store.get("no-such-id")).isEmpty();
    }

    @Test
    void aRepeatedKeyReturnsTheFirstRecordAndAnotherBodyIsAConflict() {
        NewDelivery first = delivery("k1", "{\"a\":1}", 0);
        store.accept(first, "app-1", T0, LEASE);

        Accepted repeat = store.accept(delivery("k1", "{\"a\":1}", 0), "app-1", T0.plusSeconds(1), LEASE);

        assertThat(repeat.created()).isFalse();
        assertThat(repeat.record().id()).isEqualTo(first.id());
        assertThatThrownBy(() -> store.accept(delivery("k1", "{\"a\":2}", 0), "app-1", T0, LEASE))
                .isInstanceOf(IdempotencyConflictException.class)
                .hasMessageContaining(first.id());
        Accepted unkeyed =
                store.accept(new NewDelivery("u1", "acme", null, "f", new byte[] {1}, 0), "app-1", T0, LEASE);
        assertThat(unkeyed.created()).isTrue();
        assertThat(unkeyed.record().key().slot()).isEqualTo("id:u1");
    }

    @Test
    void theSameKeyOnTwoAppsAtOnceGivesOneRecord() throws Exception {
        DeliveryStore other = app(Retention.DEFAULT);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 10; round++) {
                String key = "race-" + round;
                CyclicBarrier start = new CyclicBarrier(2);
                Future<Accepted> a = pool.submit(acceptAfter(start, store, delivery(key, "b", 0)));
                Future<Accepted> b = pool.submit(acceptAfter(start, other, delivery(key, "b", 0)));
                Accepted ra = a.get(60, TimeUnit.SECONDS);
                Accepted rb = b.get(60, TimeUnit.SECONDS);

                assertThat(ra.record().id())
                        .as("round %s", round)
                        .isEqualTo(rb.record().id());
                assertThat(List.of(ra.created(), rb.created())).containsExactlyInAnyOrder(true, false);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static Callable<Accepted> acceptAfter(CyclicBarrier start, DeliveryStore s, NewDelivery d) {
        return () -> {
            start.await(30, TimeUnit.SECONDS);
            return s.accept(d, "app", T0, LEASE);
        };
    }

    @Test
    void ofTwoConcurrentClaimersOfADueRecordExactlyOneWins() throws Exception {
        DeliveryStore other = app(Retention.DEFAULT);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 10; round++) {
                // A zero lease: due again at once, as if the accepting App had died.
                store.accept(delivery("claim-" + round, "b", round), "app-0", T0, Duration.ZERO);
                CyclicBarrier start = new CyclicBarrier(2);
                Future<List<DeliveryRecord>> a = pool.submit(claimAfter(start, store, "app-a", round));
                Future<List<DeliveryRecord>> b = pool.submit(claimAfter(start, other, "app-b", round));
                List<DeliveryRecord> won = new ArrayList<>(a.get(60, TimeUnit.SECONDS));
                won.addAll(b.get(60, TimeUnit.SECONDS));

                assertThat(won).as("round %s", round).hasSize(1);
                DeliveryRecord stored = store.get(won.get(0).id()).orElseThrow();
                assertThat(stored.lease()).isEqualTo(won.get(0).lease());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static Callable<List<DeliveryRecord>> claimAfter(
            CyclicBarrier start, DeliveryStore s, String owner, int bucket) {
        return () -> {
            start.await(30, TimeUnit.SECONDS);
            return s.claimDue(bucket, owner, T0.plusSeconds(1), LEASE, 10);
        };
    }

    @Test
    void anExpiredLeaseIsClaimedAgainAndTheOldHolderIsRefused() {
        DeliveryRecord accepted =
                store.accept(delivery("k", "b", 3), "app-1", T0, LEASE).record();

        assertThat(store.claimDue(3, "app-2", T0.plus(LEASE).minusMillis(1), LEASE, 10))
                .isEmpty();
        List<DeliveryRecord> claimed = store.claimDue(3, "app-2", T0.plus(LEASE), LEASE, 10);

        assertThat(claimed).extracting(DeliveryRecord::id).containsExactly(accepted.id());
        assertThat(claimed.get(0).lease())
                .isEqualTo(new Lease("app-2", T0.plus(LEASE).plus(LEASE)));
        Instant later = T0.plus(LEASE).plusSeconds(1);
        assertThatThrownBy(() -> store.recordAttempt(
                        accepted.key(), "app-1", attempt(later, "retry", 503), new NextAttempt.Dead(true), later))
                .isInstanceOf(LeaseLostException.class);
        assertThat(store.get(accepted.id()).orElseThrow().lease().owner()).isEqualTo("app-2");
        assertThat(store.attempts(accepted.key())).isEmpty();
        assertThat(store.recordAttempt(
                                accepted.key(),
                                "app-2",
                                attempt(later, "delivered", 200),
                                new NextAttempt.Delivered(),
                                later)
                        .status())
                .isEqualTo(DeliveryStatus.DELIVERED);
    }

    @Test
    void aClaimCountsTheLeasesThatHadExpired() {
        DeliveryRecord stalled =
                store.accept(delivery("stalled", "b", 5), "app-1", T0, LEASE).record();
        DeliveryRecord pending =
                store.accept(delivery("pending", "b", 5), "app-1", T0, LEASE).record();
        store.recordAttempt(pending.key(), "app-1", attempt(T0, "retry", 503), new NextAttempt.At(2, T0), T0);

        DeliveryStore.Claim claim = store.claim(5, "app-2", T0.plus(LEASE), LEASE, 10);

        assertThat(claim.records())
                .extracting(DeliveryRecord::id)
                .containsExactlyInAnyOrder(stalled.id(), pending.id());
        assertThat(claim.leaseExpiries()).as("only the stalled one had a lease").isEqualTo(1);
        assertThat(claim.conflicts()).isZero();
    }

    @Test
    void aPostponedRecordIsReleasedWithoutAnAttemptAndDueAtItsNewTime() {
        DeliveryRecord accepted =
                store.accept(delivery("k", "b", 6), "app-1", T0, LEASE).record();
        Instant later = T0.plusSeconds(3);

        assertThatThrownBy(() -> store.postpone(accepted.key(), "app-2", later))
                .as("only the holder may hand it back")
                .isInstanceOf(LeaseLostException.class);
        DeliveryRecord postponed = store.postpone(accepted.key(), "app-1", later);

        assertThat(postponed.status()).isEqualTo(DeliveryStatus.PENDING);
        assertThat(postponed.lease()).isNull();
        assertThat(postponed.dueAt()).isEqualTo(later);
        assertThat(postponed.attempts()).as("no attempt counted").isZero();
        assertThat(store.get(accepted.id()).orElseThrow()).isEqualTo(postponed);
        assertThat(store.attempts(accepted.key())).isEmpty();
        assertThat(store.claimDue(6, "app-2", later.minusMillis(1), LEASE, 10)).isEmpty();
        assertThat(store.claimDue(6, "app-2", later, LEASE, 10))
                .extracting(DeliveryRecord::id)
                .containsExactly(accepted.id());
    }

    @Test
    void aRescheduledRecordIsReleasedAndDueAtItsTime() {
        DeliveryRecord accepted =
                store.accept(delivery("k", "b", 1), "app-1", T0, LEASE).record();
        Instant next = T0.plusSeconds(5);

        DeliveryRecord after = store.recordAttempt(
                accepted.key(), "app-1", attempt(T0, "retry", 503), new NextAttempt.At(2, next), T0.plusSeconds(1));

        assertThat(after.status()).isEqualTo(DeliveryStatus.PENDING);
        assertThat(after.lease()).isNull();
        assertThat(after.dueAt()).isEqualTo(next);
        assertThat(after.attempts()).isEqualTo(1);
        assertThat(store.get(accepted.id()).orElseThrow()).isEqualTo(after);
        assertThatThrownBy(() -> store.recordAttempt(
                        accepted.key(), "app-1", attempt(T0, "retry", 503), new NextAttempt.Delivered(), T0))
                .as("a released record has no holder")
                .isInstanceOf(LeaseLostException.class);
        assertThat(store.claimDue(1, "app-2", next.minusMillis(1), LEASE, 10)).isEmpty();
        assertThat(store.claimDue(1, "app-2", next, LEASE, 10))
                .extracting(DeliveryRecord::id)
                .containsExactly(accepted.id());
        assertThat(store.claimDue(1, "app-3", next, LEASE, 10)).as("leased now").isEmpty();
    }

    @Test
    void attemptsAreLoggedAndAFinishedRecordIsNeverDue() {
        DeliveryRecord accepted =
                store.accept(delivery("k", "b", 2), "app-1", T0, LEASE).record();
        store.recordAttempt(accepted.key(), "app-1", attempt(T0, "retry", 503), new NextAttempt.At(2, T0), T0);
        store.claimDue(2, "app-1", T0, LEASE, 10);
        Attempt last = new Attempt(T0.plusSeconds(1), null, null, "delivered", "ok", null, Duration.ZERO, null);

        DeliveryRecord done =
                store.recordAttempt(accepted.key(), "app-1", last, new NextAttempt.Delivered(), T0.plusSeconds(2));

        assertThat(done.status()).isEqualTo(DeliveryStatus.DELIVERED);
        assertThat(done.dueAt()).isNull();
        assertThat(done.attempts()).isEqualTo(2);
        List<Attempt.Logged> log = store.attempts(accepted.key());
        assertThat(log).extracting(Attempt.Logged::number).containsExactly(1, 2);
        Attempt first = log.get(0).attempt();
        assertThat(first.egressIp()).isEqualTo("127.0.0.3");
        assertThat(first.borderId()).isEqualTo("border-a");
        assertThat(first.targetStatus()).isEqualTo(503);
        assertThat(first.duration()).isEqualTo(Duration.ofMillis(42));
        assertThat(first.excerpt()).hasSize(Attempt.MAX_EXCERPT);
        assertThat(log.get(1).attempt()).isEqualTo(last);
        assertThat(store.claimDue(2, "app-2", T0.plus(Duration.ofDays(365)), LEASE, 10))
                .isEmpty();
    }

    @Test
    void aFinishedRecordIsRetriedAsANewSeriesUnderTheSameId() {
        DeliveryRecord accepted =
                store.accept(delivery("k", "b", 4), "app-1", T0, LEASE).record();
        assertThatThrownBy(() -> store.retry(accepted.key(), T0)).isInstanceOf(NotRetryableException.class);
        store.recordAttempt(accepted.key(), "app-1", attempt(T0, "stop", 410), new NextAttempt.Dead(false), T0);
        Instant now = T0.plusSeconds(60);

        DeliveryRecord again = store.retry(accepted.key(), now);

        assertThat(again.id()).isEqualTo(accepted.id());
        assertThat(again.status()).isEqualTo(DeliveryStatus.PENDING);
        assertThat(again.series()).isEqualTo(2);
        assertThat(again.attempts()).isZero();
        assertThat(again.dueAt()).isEqualTo(now);
        assertThat(store.get(accepted.id()).orElseThrow()).isEqualTo(again);
        List<DeliveryRecord> claimed = store.claimDue(4, "app-2", now, LEASE, 10);
        assertThat(claimed).extracting(DeliveryRecord::id).containsExactly(accepted.id());
        store.recordAttempt(accepted.key(), "app-2", attempt(now, "delivered", 200), new NextAttempt.Delivered(), now);
        assertThat(store.attempts(accepted.key()))
                .extracting(l -> l.series() + "/" + l.number())
                .containsExactly("1/1", "2/1");
    }

    @Test
    void listingPagesByAcceptanceTimeWithStatusAndSince() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            // Two records per instant, so pages also break between records accepted at the same time.
            NewDelivery d = delivery("p" + i, "b", 0);
            ids.add(store.accept(d, "app-1", T0.plusSeconds(i / 2), LEASE)
                    .record()
                    .id());
        }
        store.accept(new NewDelivery("other", "small-co", null, "f", new byte[0], 0), "app-1", T0, LEASE);
        DeliveryRecord dead = store.get(ids.get(6)).orElseThrow();
        store.recordAttempt(dead.key(), "app-1", attempt(T0, "stop", 410), new NextAttempt.Dead(false), T0);

        List<String> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            DeliveryPage page = store.list("acme", null, T0, cursor, 2);
            assertThat(page.records()).hasSizeLessThanOrEqualTo(2);
            page.records().forEach(r -> seen.add(r.id()));
            cursor = page.next();
            pages++;
        } while (cursor != null);

        assertThat(pages).isEqualTo(4);
        assertThat(seen).containsExactlyInAnyOrderElementsOf(ids).doesNotHaveDuplicates();
        assertThat(store.list("acme", DeliveryStatus.DEAD, T0, null, 10).records())
                .extracting(DeliveryRecord::id)
                .containsExactly(ids.get(6));
        assertThat(store.list("acme", null, T0.plusSeconds(3), null, 10).records())
                .extracting(DeliveryRecord::id)
                .containsExactly(ids.get(6));
        assertThat(store.list("small-co", null, T0, null, 10).records())
                .extracting(DeliveryRecord::id)
                .containsExactly("other");
        assertThatThrownBy(() -> store.list("acme", null, T0, "not a cursor", 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cursor");
    }

    @Test
    void backlogCountsDueUnleasedAndDeadRecordsPerTenant() {
        DeliveryRecord later =
                store.accept(delivery("later", "b", 0), "app-1", T0, LEASE).record();
        DeliveryRecord dead =
                store.accept(delivery("dead", "b", 1), "app-1", T0, LEASE).record();
        DeliveryRecord leased =
                store.accept(delivery("leased", "b", 2), "app-1", T0, LEASE).record();
        DeliveryRecord delivered =
                store.accept(delivery("done", "b", 2), "app-1", T0, LEASE).record();
        DeliveryRecord other = store.accept(
                        new NewDelivery(UUID.randomUUID().toString(), "small-co", "o", "f", new byte[0], 3),
                        "app-1",
                        T0,
                        LEASE)
                .record();
        store.recordAttempt(
                later.key(), "app-1", attempt(T0, "retry", 503), new NextAttempt.At(2, T0.plusSeconds(10)), T0);
        store.recordAttempt(dead.key(), "app-1", attempt(T0, "stop", 410), new NextAttempt.Dead(false), T0);
        store.recordAttempt(delivered.key(), "app-1", attempt(T0, "delivered", 200), new NextAttempt.Delivered(), T0);
        store.recordAttempt(
                other.key(), "app-1", attempt(T0, "retry", 503), new NextAttempt.At(2, T0.plusSeconds(5)), T0);

        Backlog early = store.backlog(T0.plusSeconds(1), 4, 1000);
        assertThat(early.due()).isEmpty();
        assertThat(early.dead()).containsExactly(Map.entry("acme", 1L));
        assertThat(early.oldestDue()).isNull();
        assertThat(early.oldestDueAge()).isZero();
        assertThat(early.complete()).isTrue();

        Backlog waiting = store.backlog(T0.plusSeconds(20), 4, 1000);
        assertThat(waiting.due()).containsExactly(Map.entry("acme", 1L), Map.entry("small-co", 1L));
        assertThat(waiting.oldestDue()).isEqualTo(T0.plusSeconds(5));
        assertThat(waiting.oldestDueAge()).isEqualTo(Duration.ofSeconds(15));

        // The accepting App's lease on "leased" ended at T0 + 30 s: due again, and counted.
        Backlog expired = store.backlog(T0.plus(LEASE).plusSeconds(1), 4, 1000);
        assertThat(expired.due()).containsExactly(Map.entry("acme", 2L), Map.entry("small-co", 1L));
        assertThat(expired.dead()).containsExactly(Map.entry("acme", 1L));
        assertThat(leased.bucket()).isEqualTo(2);

        // Bounded: a read that stops at its bound says its counts are lower bounds.
        Backlog bounded = store.backlog(T0.plus(LEASE).plusSeconds(1), 4, 2);
        assertThat(bounded.complete()).isFalse();
        assertThat(bounded.due().values().stream().mapToLong(Long::longValue).sum())
                .isLessThanOrEqualTo(2);
    }

    @Test
    void finishedRecordsExpireAfterTheirRetention() {
        assumeTrue(fastTtl(), "YDB sweeps TTL after 15 min or more; asserted on the embedded node only");
        DeliveryStore shortLived = app(new Retention(Duration.ZERO, Duration.ofDays(30)));
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        DeliveryRecord delivered =
                shortLived.accept(delivery("gone", "b", 0), "app-1", now, LEASE).record();
        DeliveryRecord dead =
                shortLived.accept(delivery("kept", "b", 0), "app-1", now, LEASE).record();
        shortLived.recordAttempt(
                delivered.key(), "app-1", attempt(now, "delivered", 200), new NextAttempt.Delivered(), now);
        shortLived.recordAttempt(dead.key(), "app-1", attempt(now, "stop", 410), new NextAttempt.Dead(false), now);

        await().atMost(Duration.ofSeconds(30))
                .until(() -> shortLived.get(delivered.id()).isEmpty());
        assertThat(shortLived.attempts(delivered.key())).isEmpty();
        assertThat(shortLived.get(dead.id())).isPresent();
        assertThat(shortLived.attempts(dead.key())).hasSize(1);
    }

    @Test
    void theClaimsTableStoresClaimsOnceDeletesThemAndKeepsOnlyTheMovedOne() {
        ClaimRecords claims = opened.get(0).claims();
        DeliveryTables second = DeliveryTables.open(connectionString(), prefix, Retention.DEFAULT, 2);
        opened.add(second);
        ClaimRecords otherApp = second.claims();
        EgressIp ip = EgressIp.of("127.0.0.3");
        Claim a = new Claim(ip, BorderId.of("border-a"));
        Claim b = new Claim(ip, BorderId.of("border-b"));
        Claim c = new Claim(ip, BorderId.of("border-c"));
        Claim elsewhere = new Claim(EgressIp.of("2001:db8::7"), BorderId.of("border-a"));
        assertThat(claims.readAll()).isEmpty();

        claims.upsert(List.of(a, b, elsewhere), T0);
        otherApp.upsert(List.of(a, c), T0.plusSeconds(1));

        assertThat(otherApp.readAll()).containsExactlyInAnyOrder(a, b, c, elsewhere);
        claims.delete(List.of(c, new Claim(ip, BorderId.of("never-stored"))));
        assertThat(claims.readAll()).containsExactlyInAnyOrder(a, b, elsewhere);

        otherApp.keepOnly(b, T0.plusSeconds(2));

        assertThat(claims.readAll()).containsExactlyInAnyOrder(b, elsewhere);
        claims.upsert(List.of(), T0);
        claims.delete(List.of());
        assertThat(claims.readAll()).containsExactlyInAnyOrder(b, elsewhere);
    }
}
