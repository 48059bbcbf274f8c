package dev.egress.app.delivery.ydb;

import static dev.egress.app.delivery.ydb.DeliveryRows.micros;
import static dev.egress.app.delivery.ydb.DeliveryRows.text;
import static dev.egress.app.delivery.ydb.DeliveryRows.time;

import dev.egress.app.delivery.DeliveryStoreException;
import dev.egress.app.routing.Claim;
import dev.egress.app.routing.ClaimRecords;
import dev.egress.app.routing.ClaimStoreException;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.RateLimitedLog;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.LoggerFactory;
import tech.ydb.table.query.Params;
import tech.ydb.table.result.ResultSetReader;
import tech.ydb.table.values.ListType;
import tech.ydb.table.values.PrimitiveType;
import tech.ydb.table.values.StructType;
import tech.ydb.table.values.Value;

/**
 * The claims table ({@code <prefix>ip_claims}, see {@link DeliverySchema}) behind routing's {@link ClaimRecords}
 * port, on the delivery store's connection and transactions: App's one writable database. Each call is one
 * serializable transaction; a failure is a {@link ClaimStoreException}.
 */
final class YdbClaimRecords implements ClaimRecords {

    /** A row as a parameter; members in name order, as YQL orders a struct's members. */
    private static final StructType ROW = StructType.of(
            "border_id", PrimitiveType.Text, "ip", PrimitiveType.Text, "seen_at", PrimitiveType.Timestamp);

    private final RateLimitedLog badRows =
            new RateLimitedLog(LoggerFactory.getLogger(YdbClaimRecords.class), Duration.ofMinutes(1));
    private final Transactions tx;
    private final String table;

    YdbClaimRecords(Transactions tx, DeliverySchema schema) {
        this.tx = tx;
        this.table = schema.claims();
    }

    @Override
    public Set<Claim> readAll() {
        return call(
                "read",
                () -> tx.serializable(t -> {
                    ResultSetReader rs = t.run("SELECT ip, border_id FROM `%s`".formatted(table), Params.empty())
                            .getResultSet(0);
                    Set<Claim> claims = new HashSet<>();
                    while (rs.next()) {
                        String ip = rs.getColumn("ip").getText();
                        String border = rs.getColumn("border_id").getText();
                        try {
                            claims.add(new Claim(EgressIp.of(ip), BorderId.of(border)));
                        } catch (IllegalArgumentException e) {
                            // Written by hand, not by an App: no claim of a real Border, so it is no claim at all.
                            badRows.warn(
                                    "Claims table: ignored the row (%s, %s): %s".formatted(ip, border, e.getMessage()),
                                    null);
                        }
                    }
                    return claims;
                }));
    }

    @Override
    public void upsert(Collection<Claim> claims, Instant seenAt) {
        if (claims.isEmpty()) {
            return;
        }
        List<Value<?>> rows = new ArrayList<>(claims.size());
        Value<?> seen = time(micros(seenAt));
        for (Claim claim : claims) {
            rows.add(ROW.newValue(
                    "border_id",
                    text(claim.border().value()),
                    "ip",
                    text(claim.ip().value()),
                    "seen_at",
                    seen));
        }
        Params params = Params.of("$rows", ListType.of(ROW).newValue(rows));
        call("write", () -> tx.serializable(t -> t.run("""
                DECLARE $rows AS List<Struct<border_id: Utf8, ip: Utf8, seen_at: Timestamp>>;
                UPSERT INTO `%s` SELECT * FROM AS_TABLE($rows)""".formatted(table), params)));
    }

    @Override
    public void delete(Collection<Claim> claims) {
        if (claims.isEmpty()) {
            return;
        }
        call(
                "delete",
                () -> tx.serializable(t -> {
                    for (Claim claim : claims) {
                        t.run(
                                """
                        DECLARE $ip AS Utf8; DECLARE $border AS Utf8;
                        DELETE FROM `%s` WHERE ip = $ip AND border_id = $border""".formatted(table),
                                Params.of(
                                        "$ip",
                                        text(claim.ip().value()),
                                        "$border",
                                        text(claim.border().value())));
                    }
                    return null;
                }));
    }

    @Override
    public void keepOnly(Claim owner, Instant seenAt) {
        Value<?> ip = text(owner.ip().value());
        Value<?> border = text(owner.border().value());
        call(
                "move",
                () -> tx.serializable(t -> {
                    t.run("""
                    DECLARE $ip AS Utf8; DECLARE $border AS Utf8;
                    DELETE FROM `%s` WHERE ip = $ip AND border_id != $border""".formatted(table), Params.of("$ip", ip, "$border", border));
                    return t.run(
                            """
                    DECLARE $ip AS Utf8; DECLARE $border AS Utf8; DECLARE $seen AS Timestamp;
                    UPSERT INTO `%s` (ip, border_id, seen_at) VALUES ($ip, $border, $seen)""".formatted(table),
                            Params.of("$ip", ip, "$border", border, "$seen", time(micros(seenAt))));
                }));
    }

    /** Runs a call; whatever fails in it (the SDK, the connection, a closed client) is the table's failure. */
    private <T> T call(String what, Supplier<T> body) {
        try {
            return body.get();
        } catch (DeliveryStoreException e) {
            throw new ClaimStoreException("claims table (%s): %s".formatted(what, e.getMessage()), e);
        } catch (RuntimeException e) {
            throw new ClaimStoreException("claims table (%s): %s".formatted(what, e), e);
        }
    }
}
