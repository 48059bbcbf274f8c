package dev.egress.app.delivery.ydb;

import dev.egress.app.delivery.Attempt;
import dev.egress.app.delivery.DeliveryKey;
import dev.egress.app.delivery.DeliveryRecord;
import dev.egress.app.delivery.DeliveryStatus;
import dev.egress.app.delivery.Lease;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tech.ydb.table.result.ResultSetReader;
import tech.ydb.table.result.ValueReader;
import tech.ydb.table.values.PrimitiveType;
import tech.ydb.table.values.PrimitiveValue;
import tech.ydb.table.values.Value;

/** Between rows and values: reads records and attempts from result sets, and makes typed parameters. */
final class DeliveryRows {

    private DeliveryRows() {}

    /** Every record of a result set, in its order. */
    static List<DeliveryRecord> records(ResultSetReader rs) {
        List<DeliveryRecord> out = new ArrayList<>();
        while (rs.next()) {
            out.add(record(rs));
        }
        return out;
    }

    private static DeliveryRecord record(ResultSetReader rs) {
        String owner = text(rs, "lease_owner");
        Instant until = time(rs, "lease_until");
        return new DeliveryRecord(
                new DeliveryKey(
                        rs.getColumn("tenant_id").getText(),
                        rs.getColumn("slot").getText()),
                rs.getColumn("id").getText(),
                rs.getColumn("fingerprint").getText(),
                rs.getColumn("request").getBytes(),
                DeliveryStatus.ofWire(rs.getColumn("status").getText()),
                rs.getColumn("bucket").getInt32(),
                time(rs, "due_at"),
                owner == null || until == null ? null : new Lease(owner, until),
                rs.getColumn("series").getInt32(),
                rs.getColumn("attempts").getInt32(),
                rs.getColumn("created_at").getTimestamp(),
                rs.getColumn("updated_at").getTimestamp());
    }

    /** Every attempt of a result set, in its order. */
    static List<Attempt.Logged> attempts(ResultSetReader rs) {
        List<Attempt.Logged> out = new ArrayList<>();
        while (rs.next()) {
            ValueReader status = rs.getColumn("target_status");
            Attempt attempt = new Attempt(
                    rs.getColumn("attempted_at").getTimestamp(),
                    text(rs, "egress_ip"),
                    text(rs, "border_id"),
                    rs.getColumn("outcome").getText(),
                    text(rs, "reason"),
                    status.isOptionalItemPresent() ? status.getInt32() : null,
                    Duration.ofMillis(rs.getColumn("duration_ms").getInt64()),
                    text(rs, "excerpt"));
            out.add(new Attempt.Logged(
                    rs.getColumn("series").getInt32(),
                    rs.getColumn("attempt_no").getInt32(),
                    attempt));
        }
        return out;
    }

    private static @Nullable String text(ResultSetReader rs, String column) {
        ValueReader v = rs.getColumn(column);
        return v.isOptionalItemPresent() ? v.getText() : null;
    }

    private static @Nullable Instant time(ResultSetReader rs, String column) {
        ValueReader v = rs.getColumn(column);
        return v.isOptionalItemPresent() ? v.getTimestamp() : null;
    }

    /** YDB keeps microseconds: every time the store writes is cut to them, so what it returns is what it stored. */
    static Instant micros(Instant t) {
        return t.truncatedTo(ChronoUnit.MICROS);
    }

    static Value<?> text(String s) {
        return PrimitiveValue.newText(s);
    }

    static Value<?> optionalText(@Nullable String s) {
        return s == null
                ? PrimitiveType.Text.makeOptional().emptyValue()
                : PrimitiveValue.newText(s).makeOptional();
    }

    static Value<?> time(Instant t) {
        return PrimitiveValue.newTimestamp(t);
    }

    static Value<?> optionalTime(@Nullable Instant t) {
        return t == null
                ? PrimitiveType.Timestamp.makeOptional().emptyValue()
                : PrimitiveValue.newTimestamp(t).makeOptional();
    }

    static Value<?> int32(int i) {
        return PrimitiveValue.newInt32(i);
    }

    static Value<?> optionalInt32(@Nullable Integer i) {
        return i == null
                ? PrimitiveType.Int32.makeOptional().emptyValue()
                : PrimitiveValue.newInt32(i).makeOptional();
    }
}
