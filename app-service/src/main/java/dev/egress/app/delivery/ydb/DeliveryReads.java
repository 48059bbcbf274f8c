package dev.egress.app.delivery.ydb;

import static dev.egress.app.delivery.ydb.DeliveryRows.int32;
import static dev.egress.app.delivery.ydb.DeliveryRows.text;
import static dev.egress.app.delivery.ydb.DeliveryRows.time;

import dev.egress.app.delivery.Attempt;
import dev.egress.app.delivery.DeliveryKey;
import dev.egress.app.delivery.DeliveryPage;
import dev.egress.app.delivery.DeliveryRecord;
import dev.egress.app.delivery.DeliveryStatus;
import dev.egress.app.delivery.ydb.Transactions.Tx;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tech.ydb.table.query.Params;
import tech.ydb.table.result.ResultSetReader;
import tech.ydb.table.result.ValueReader;
import tech.ydb.table.values.PrimitiveValue;

/**
 * The store's reads, each inside the caller's transaction (so what a write decides on is locked by it). A listing
 * pages by its index's order, {@code (created_at, slot)}: the cursor is the last row's pair, so a page never
 * repeats or skips a record that was there when the first page was read, whatever is accepted meanwhile.
 */
final class DeliveryReads {

    private final DeliverySchema schema;

    DeliveryReads(DeliverySchema schema) {
        this.schema = schema;
    }

    Optional<DeliveryRecord> byKey(Tx t, DeliveryKey key) {
        List<DeliveryRecord> rows = DeliveryRows.records(t.run(
                        """
                        DECLARE $tenant AS Utf8; DECLARE $slot AS Utf8;
                        SELECT * FROM `%s` WHERE tenant_id = $tenant AND slot = $slot""".formatted(schema.deliveries()),
                        Params.of("$tenant", text(key.tenantId()), "$slot", text(key.slot())))
                .getResultSet(0));
        return rows.stream().findFirst();
    }

    Optional<DeliveryRecord> byId(Tx t, String id) {
        List<DeliveryRecord> rows =
                DeliveryRows.records(t.run("""
                        DECLARE $id AS Utf8;
                        SELECT * FROM `%s` VIEW by_id WHERE id = $id""".formatted(schema.deliveries()), Params.of("$id", text(id)))
                        .getResultSet(0));
        return rows.stream().findFirst();
    }

    /** Due records of a bucket: pending ones whose time came, and leased ones whose lease ended. */
    List<DeliveryRecord> due(Tx t, int bucket, Instant now, int limit) {
        return DeliveryRows.records(t.run(
                        """
                        DECLARE $bucket AS Int32; DECLARE $now AS Timestamp; DECLARE $limit AS Uint64;
                        SELECT * FROM `%s` VIEW by_due
                        WHERE bucket = $bucket AND due_at <= $now AND (status = 'pending' OR status = 'delivering')
                        ORDER BY due_at LIMIT $limit""".formatted(schema.deliveries()),
                        Params.of(
                                "$bucket", int32(bucket),
                                "$now", time(now),
                                "$limit", PrimitiveValue.newUint64(limit)))
                .getResultSet(0));
    }

    /** A due record as the backlog counts it. */
    record Waiting(String tenantId, Instant dueAt) {}

    /** Due records of a bucket not leased (pending ones whose time came, leased ones whose lease ended), at most limit. */
    List<Waiting> waiting(Tx t, int bucket, Instant now, int limit) {
        ResultSetReader rs = t.run(
                        """
                        DECLARE $bucket AS Int32; DECLARE $now AS Timestamp; DECLARE $limit AS Uint64;
                        SELECT tenant_id, due_at FROM `%s` VIEW by_due
                        WHERE bucket = $bucket AND due_at <= $now AND (status = 'pending' OR status = 'delivering')
                        LIMIT $limit""".formatted(schema.deliveries()),
                        Params.of(
                                "$bucket", int32(bucket),
                                "$now", time(now),
                                "$limit", PrimitiveValue.newUint64(limit)))
                .getResultSet(0);
        List<Waiting> out = new ArrayList<>();
        while (rs.next()) {
            ValueReader due = rs.getColumn("due_at");
            out.add(new Waiting(rs.getColumn("tenant_id").getText(), due.getTimestamp()));
        }
        return out;
    }

    /** The tenant of each dead record, at most limit. */
    List<String> deadTenants(Tx t, int limit) {
        ResultSetReader rs = t.run(
                        """
                        DECLARE $limit AS Uint64;
                        SELECT tenant_id FROM `%s` VIEW by_status WHERE status = 'dead' LIMIT $limit""".formatted(schema.deliveries()), Params.of("$limit", PrimitiveValue.newUint64(limit)))
                .getResultSet(0);
        List<String> out = new ArrayList<>();
        while (rs.next()) {
            out.add(rs.getColumn("tenant_id").getText());
        }
        return out;
    }

    List<Attempt.Logged> attempts(Tx t, DeliveryKey key) {
        return DeliveryRows.attempts(t.run(
                        """
                        DECLARE $tenant AS Utf8; DECLARE $slot AS Utf8;
                        SELECT * FROM `%s` WHERE tenant_id = $tenant AND slot = $slot ORDER BY series, attempt_no""".formatted(schema.attempts()),
                        Params.of("$tenant", text(key.tenantId()), "$slot", text(key.slot())))
                .getResultSet(0));
    }

    /**
     * Where a listing starts, checked before any transaction (a bad cursor or limit is the caller's mistake, not a
     * store failure).
     */
    static Cursor start(Instant since, @Nullable String cursor, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit: %s (expected: > 0)".formatted(limit));
        }
        Cursor after = cursor == null ? new Cursor(since, "") : Cursor.decode(cursor);
        return after.createdAt().isBefore(since) ? new Cursor(since, "") : after;
    }

    DeliveryPage list(Tx t, String tenantId, @Nullable DeliveryStatus status, Cursor after, int limit) {
        // The first page starts at (since, ""), which sorts before every slot of that instant: one predicate serves
        // both the first page and the next ones.
        List<DeliveryRecord> rows = DeliveryRows.records(t.run(
                        """
                        DECLARE $tenant AS Utf8; DECLARE $at AS Timestamp; DECLARE $slot AS Utf8;
                        DECLARE $status AS Utf8?; DECLARE $limit AS Uint64;
                        SELECT * FROM `%s` VIEW by_tenant
                        WHERE tenant_id = $tenant AND created_at >= $at
                            AND (created_at > $at OR slot > $slot)
                            AND ($status IS NULL OR status = $status)
                        ORDER BY created_at, slot LIMIT $limit""".formatted(schema.deliveries()),
                        Params.of(
                                "$tenant", text(tenantId),
                                "$at", time(after.createdAt()),
                                "$slot", text(after.slot()),
                                "$status", DeliveryRows.optionalText(status == null ? null : status.wireName()),
                                "$limit", PrimitiveValue.newUint64(limit + 1L)))
                .getResultSet(0));
        if (rows.size() <= limit) {
            return new DeliveryPage(rows, null);
        }
        DeliveryRecord last = rows.get(limit - 1);
        return new DeliveryPage(
                rows.subList(0, limit), new Cursor(last.createdAt(), last.key().slot()).encode());
    }

    /** Where a page ends; opaque to callers. */
    record Cursor(Instant createdAt, String slot) {

        String encode() {
            String raw = createdAt.getEpochSecond() + ":" + createdAt.getNano() + ":" + slot;
            return Base64.getUrlEncoder().withoutPadding().encodeToString(raw.getBytes(StandardCharsets.UTF_8));
        }

        static Cursor decode(String cursor) {
            try {
                String raw = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
                String[] parts = raw.split(":", 3);
                return new Cursor(Instant.ofEpochSecond(Long.parseLong(parts[0]), Long.parseLong(parts[1])), parts[2]);
            } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
                throw new IllegalArgumentException("cursor: '%s' (expected: a page's next)".formatted(cursor), e);
            }
        }
    }
}
