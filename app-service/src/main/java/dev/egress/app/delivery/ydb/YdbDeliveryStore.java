package dev.egress.app.delivery.ydb;

import static dev.egress.app.delivery.ydb.DeliveryRows.int32;
import static dev.egress.app.delivery.ydb.DeliveryRows.micros;
import static dev.egress.app.delivery.ydb.DeliveryRows.optionalInt32;
import static dev.egress.app.delivery.ydb.DeliveryRows.optionalText;
import static dev.egress.app.delivery.ydb.DeliveryRows.optionalTime;
import static dev.egress.app.delivery.ydb.DeliveryRows.text;
import static dev.egress.app.delivery.ydb.DeliveryRows.time;

import dev.egress.app.delivery.Attempt;
import dev.egress.app.delivery.Backlog;
import dev.egress.app.delivery.DeliveryKey;
import dev.egress.app.delivery.DeliveryPage;
import dev.egress.app.delivery.DeliveryRecord;
import dev.egress.app.delivery.DeliveryStatus;
import dev.egress.app.delivery.DeliveryStore;
import dev.egress.app.delivery.DeliveryStoreException;
import dev.egress.app.delivery.IdempotencyConflictException;
import dev.egress.app.delivery.Lease;
import dev.egress.app.delivery.LeaseLostException;
import dev.egress.app.delivery.NewDelivery;
import dev.egress.app.delivery.NextAttempt;
import dev.egress.app.delivery.NotRetryableException;
import dev.egress.app.delivery.Retention;
import dev.egress.app.delivery.ydb.Transactions.Tx;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import tech.ydb.table.query.Params;
import tech.ydb.table.values.PrimitiveValue;

/**
 * The delivery store on YDB tables. Each operation reads what it decides on and writes in the same serializable
 * transaction, so a concurrent change to those rows aborts the commit and the operation runs again on what the
 * other one wrote (see {@link Transactions}): that is the compare-and-set of claims and lease-holder writes, and
 * what makes a repeated {@code Idempotency-Key} find the first record on any App. Reads are in {@link DeliveryReads}.
 */
public final class YdbDeliveryStore implements DeliveryStore {

    private final Transactions tx;
    private final DeliverySchema schema;
    private final DeliveryReads reads;
    private final Retention retention;

    YdbDeliveryStore(Transactions tx, DeliverySchema schema, Retention retention) {
        this.tx = tx;
        this.schema = schema;
        this.reads = new DeliveryReads(schema);
        this.retention = retention;
    }

    /** Creates the tables, the claims table included, when they are missing; safe on every start of every App. */
    void createTables() {
        tx.scheme(schema.createDeliveries());
        tx.scheme(schema.createAttempts());
        tx.scheme(schema.createClaims());
    }

    void dropTables() {
        tx.scheme("DROP TABLE `%s`".formatted(schema.deliveries()));
        tx.scheme("DROP TABLE `%s`".formatted(schema.attempts()));
        tx.scheme("DROP TABLE `%s`".formatted(schema.claims()));
    }

    @Override
    public Accepted accept(NewDelivery delivery, String owner, Instant now, Duration lease) {
        Instant at = micros(now);
        Lease held = new Lease(owner, micros(now.plus(lease)));
        DeliveryKey key = delivery.key();
        return tx.serializable(t -> {
            Optional<DeliveryRecord> existing = reads.byKey(t, key);
            if (existing.isPresent()) {
                if (!existing.get().fingerprint().equals(delivery.fingerprint())) {
                    throw new IdempotencyConflictException(key, existing.get().id());
                }
                return new Accepted(existing.get(), false);
            }
            DeliveryRecord record = new DeliveryRecord(
                    key,
                    delivery.id(),
                    delivery.fingerprint(),
                    delivery.request(),
                    DeliveryStatus.DELIVERING,
                    delivery.bucket(),
                    held.until(),
                    held,
                    1,
                    0,
                    at,
                    at);
            insert(t, record);
            return new Accepted(record, true);
        });
    }

    private void insert(Tx t, DeliveryRecord r) {
        Params p = Params.create()
                .put("$tenant", text(r.tenantId()))
                .put("$slot", text(r.key().slot()))
                .put("$id", text(r.id()))
                .put("$fingerprint", text(r.fingerprint()))
                .put("$request", PrimitiveValue.newBytes(r.request()))
                .put("$bucket", int32(r.bucket()))
                .put("$owner", text(r.lease().owner()))
                .put("$until", time(r.lease().until()))
                .put("$now", time(r.createdAt()));
        t.run("""
                DECLARE $tenant AS Utf8; DECLARE $slot AS Utf8; DECLARE $id AS Utf8; DECLARE $fingerprint AS Utf8;
                DECLARE $request AS String; DECLARE $bucket AS Int32; DECLARE $owner AS Utf8;
                DECLARE $until AS Timestamp; DECLARE $now AS Timestamp;
                INSERT INTO `%s` (tenant_id, slot, id, fingerprint, request, status, bucket, due_at, lease_owner,
                    lease_until, series, attempts, created_at, updated_at)
                VALUES ($tenant, $slot, $id, $fingerprint, $request, 'delivering', $bucket, $until, $owner, $until,
                    1, 0, $now, $now)""".formatted(schema.deliveries()), p);
    }

    @Override
    public Claim claim(int bucket, String owner, Instant now, Duration lease, int limit) {
        Instant at = micros(now);
        Lease held = new Lease(owner, micros(now.plus(lease)));
        AtomicInteger runs = new AtomicInteger();
        return tx.serializable(t -> {
            runs.incrementAndGet();
            List<DeliveryRecord> claimed = new ArrayList<>();
            int expired = 0;
            for (DeliveryRecord due : reads.due(t, bucket, at, limit)) {
                // A due record still "delivering" is one whose holder's lease ran out before it wrote anything.
                if (due.status() == DeliveryStatus.DELIVERING) {
                    expired++;
                }
                DeliveryRecord leased = withState(due, DeliveryStatus.DELIVERING, held.until(), held, at);
                update(t, leased, null);
                claimed.add(leased);
            }
            return new Claim(claimed, expired, runs.get() - 1);
        });
    }

    @Override
    public DeliveryRecord postpone(DeliveryKey key, String owner, Instant at) {
        Instant due = micros(at);
        return tx.serializable(t -> {
            DeliveryRecord held = holder(t, key, owner);
            DeliveryRecord released = withState(held, DeliveryStatus.PENDING, due, null, micros(Instant.now()));
            update(t, released, null);
            return released;
        });
    }

    private DeliveryRecord holder(Tx t, DeliveryKey key, String owner) {
        return reads.byKey(t, key)
                .filter(r -> r.status() == DeliveryStatus.DELIVERING)
                .filter(r -> r.lease() != null && r.lease().owner().equals(owner))
                .orElseThrow(() -> new LeaseLostException(key, owner));
    }

    private static DeliveryRecord withState(
            DeliveryRecord r, DeliveryStatus status, @Nullable Instant dueAt, @Nullable Lease lease, Instant at) {
        return new DeliveryRecord(
                r.key(),
                r.id(),
                r.fingerprint(),
                r.request(),
                status,
                r.bucket(),
                dueAt,
                lease,
                r.series(),
                r.attempts(),
                r.createdAt(),
                at);
    }

    @Override
    public DeliveryRecord recordAttempt(DeliveryKey key, String owner, Attempt attempt, NextAttempt next, Instant now) {
        Instant at = micros(now);
        return tx.serializable(t -> {
            DeliveryRecord held = holder(t, key, owner);
            int number = held.attempts() + 1;
            DeliveryRecord after = after(held, next, number, at);
            Instant expireAt = expireAt(after.status(), at);
            if (expireAt != null) {
                expireAttempts(t, key, expireAt);
            }
            insertAttempt(t, key, held.series(), number, attempt, expireAt);
            update(t, after, expireAt);
            return after;
        });
    }

    private static DeliveryRecord after(DeliveryRecord held, NextAttempt next, int attempts, Instant at) {
        if (next instanceof NextAttempt.At again) {
            return new DeliveryRecord(
                    held.key(),
                    held.id(),
                    held.fingerprint(),
                    held.request(),
                    DeliveryStatus.PENDING,
                    held.bucket(),
                    micros(again.at()),
                    null,
                    held.series(),
                    attempts,
                    held.createdAt(),
                    at);
        }
        return finished(
                held,
                next instanceof NextAttempt.Delivered ? DeliveryStatus.DELIVERED : DeliveryStatus.DEAD,
                attempts,
                at);
    }

    private static DeliveryRecord finished(DeliveryRecord held, DeliveryStatus status, int attempts, Instant at) {
        return new DeliveryRecord(
                held.key(),
                held.id(),
                held.fingerprint(),
                held.request(),
                status,
                held.bucket(),
                null,
                null,
                held.series(),
                attempts,
                held.createdAt(),
                at);
    }

    private @Nullable Instant expireAt(DeliveryStatus status, Instant now) {
        return status.finished() ? now.plus(retention.of(status)) : null;
    }

    @Override
    public DeliveryRecord retry(DeliveryKey key, Instant now) {
        Instant at = micros(now);
        return tx.serializable(t -> {
            DeliveryRecord finished = reads.byKey(t, key)
                    .orElseThrow(() ->
                            new DeliveryStoreException("no delivery at %s/%s".formatted(key.tenantId(), key.slot())));
            if (!finished.status().finished()) {
                throw new NotRetryableException(finished.id(), finished.status());
            }
            DeliveryRecord again = new DeliveryRecord(
                    key,
                    finished.id(),
                    finished.fingerprint(),
                    finished.request(),
                    DeliveryStatus.PENDING,
                    finished.bucket(),
                    at,
                    null,
                    finished.series() + 1,
                    0,
                    finished.createdAt(),
                    at);
            // The earlier series stays in the log for as long as the record lives.
            expireAttempts(t, key, null);
            update(t, again, null);
            return again;
        });
    }

    /** Writes a record's changing columns (the rest never change after acceptance). */
    private void update(Tx t, DeliveryRecord r, @Nullable Instant expireAt) {
        Lease lease = r.lease();
        Params p = Params.create()
                .put("$tenant", text(r.tenantId()))
                .put("$slot", text(r.key().slot()))
                .put("$status", text(r.status().wireName()))
                .put("$due", optionalTime(r.dueAt()))
                .put("$owner", optionalText(lease == null ? null : lease.owner()))
                .put("$until", optionalTime(lease == null ? null : lease.until()))
                .put("$series", int32(r.series()))
                .put("$attempts", int32(r.attempts()))
                .put("$now", time(r.updatedAt()))
                .put("$expire", optionalTime(expireAt));
        t.run("""
                DECLARE $tenant AS Utf8; DECLARE $slot AS Utf8; DECLARE $status AS Utf8; DECLARE $due AS Timestamp?;
                DECLARE $owner AS Utf8?; DECLARE $until AS Timestamp?; DECLARE $series AS Int32;
                DECLARE $attempts AS Int32; DECLARE $now AS Timestamp; DECLARE $expire AS Timestamp?;
                UPDATE `%s` SET status = $status, due_at = $due, lease_owner = $owner, lease_until = $until,
                    series = $series, attempts = $attempts, updated_at = $now, expire_at = $expire
                WHERE tenant_id = $tenant AND slot = $slot""".formatted(schema.deliveries()), p);
    }

    private void expireAttempts(Tx t, DeliveryKey key, @Nullable Instant expireAt) {
        t.run(
                """
                DECLARE $tenant AS Utf8; DECLARE $slot AS Utf8; DECLARE $expire AS Timestamp?;
                UPDATE `%s` SET expire_at = $expire WHERE tenant_id = $tenant AND slot = $slot""".formatted(schema.attempts()),
                Params.of(
                        "$tenant", text(key.tenantId()), "$slot", text(key.slot()), "$expire", optionalTime(expireAt)));
    }

    private void insertAttempt(Tx t, DeliveryKey key, int series, int number, Attempt a, @Nullable Instant expireAt) {
        Params p = Params.create()
                .put("$tenant", text(key.tenantId()))
                .put("$slot", text(key.slot()))
                .put("$series", int32(series))
                .put("$no", int32(number))
                .put("$at", time(micros(a.at())))
                .put("$ip", optionalText(a.egressIp()))
                .put("$border", optionalText(a.borderId()))
                .put("$outcome", text(a.outcome()))
                .put("$reason", optionalText(a.reason()))
                .put("$status", optionalInt32(a.targetStatus()))
                .put("$ms", PrimitiveValue.newInt64(a.duration().toMillis()))
                .put("$excerpt", optionalText(a.excerpt()))
                .put("$expire", optionalTime(expireAt));
        t.run("""
                DECLARE $tenant AS Utf8; DECLARE $slot AS Utf8; DECLARE $series AS Int32; DECLARE $no AS Int32;
                DECLARE $at AS Timestamp; DECLARE $ip AS Utf8?; DECLARE $border AS Utf8?; DECLARE $outcome AS Utf8;
                DECLARE $reason AS Utf8?; DECLARE $status AS Int32?; DECLARE $ms AS Int64; DECLARE $excerpt AS Utf8?;
                DECLARE $expire AS Timestamp?;
                UPSERT INTO `%s` (tenant_id, slot, series, attempt_no, attempted_at, egress_ip, border_id, outcome,
                    reason, target_status, duration_ms, excerpt, expire_at)
                VALUES ($tenant, $slot, $series, $no, $at, $ip, $border, $outcome, $reason, $status, $ms, $excerpt,
                    $expire)""".formatted(schema.attempts()), p);
    }

    /**
     * Reads the due index bucket by bucket (one short read-only transaction each: equal on the index's first column,
     * a range on its second, so only due rows are visited) and the dead records through {@code by_status}. Not one
     * {@code COUNT(*) … GROUP BY}: the embedded node's YQL subset has no aggregates, and both reads visit only the
     * rows they count either way.
     */
    @Override
    public Backlog backlog(Instant now, int buckets, int maxRows) {
        if (buckets < 1 || maxRows < 1) {
            throw new IllegalArgumentException(
                    "backlog of %s buckets, %s rows (expected: > 0)".formatted(buckets, maxRows));
        }
        Instant at = micros(now);
        Map<String, Long> due = new HashMap<>();
        Map<String, Long> dead = new HashMap<>();
        @Nullable Instant oldest = null;
        int left = maxRows;
        boolean complete = true;
        for (int bucket = 0; bucket < buckets && complete; bucket++) {
            int b = bucket;
            int limit = left;
            List<DeliveryReads.Waiting> waiting = tx.serializable(t -> reads.waiting(t, b, at, limit));
            for (DeliveryReads.Waiting w : waiting) {
                due.merge(w.tenantId(), 1L, Long::sum);
                oldest = oldest == null || w.dueAt().isBefore(oldest) ? w.dueAt() : oldest;
            }
            left -= waiting.size();
            complete = left > 0;
        }
        if (complete) {
            int limit = left;
            List<String> tenants = tx.serializable(t -> reads.deadTenants(t, limit));
            tenants.forEach(tenant -> dead.merge(tenant, 1L, Long::sum));
            complete = tenants.size() < limit;
        }
        return new Backlog(at, due, dead, oldest, complete);
    }

    @Override
    public Optional<DeliveryRecord> get(String id) {
        return tx.serializable(t -> reads.byId(t, id));
    }

    @Override
    public List<Attempt.Logged> attempts(DeliveryKey key) {
        return tx.serializable(t -> reads.attempts(t, key));
    }

    @Override
    public DeliveryPage list(
            String tenantId, @Nullable DeliveryStatus status, Instant since, @Nullable String cursor, int limit) {
        DeliveryReads.Cursor from = DeliveryReads.start(micros(since), cursor, limit);
        return tx.serializable(t -> reads.list(t, tenantId, status, from, limit));
    }
}
