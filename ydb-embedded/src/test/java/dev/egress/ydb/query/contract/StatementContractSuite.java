package dev.egress.ydb.query.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import tech.ydb.common.transaction.TxMode;
import tech.ydb.core.StatusCode;
import tech.ydb.query.tools.QueryReader;
import tech.ydb.table.query.Params;
import tech.ydb.table.result.ResultSetReader;
import tech.ydb.table.values.ListType;
import tech.ydb.table.values.ListValue;
import tech.ydb.table.values.PrimitiveType;
import tech.ydb.table.values.PrimitiveValue;
import tech.ydb.table.values.StructType;

/** Every statement form of the subset, its types and its errors, through the SDK. */
@Execution(ExecutionMode.CONCURRENT)
public abstract class StatementContractSuite extends QueryContractFixture {

    @Test
    void anUnnamedExpressionIsColumn0OfItsType() {
        ResultSetReader rs = ok("SELECT 2 + 3;").getResultSet(0);
        assertThat(rs.getColumnName(0)).isEqualTo("column0");
        assertThat(rs.next()).isTrue();
        assertThat(rs.getColumn(0).getInt32()).isEqualTo(5);
    }

    @Test
    void everyTypeOfTheSubsetRoundTrips() {
        String t = table(
                "types",
                "CREATE TABLE $T (id Uint64 NOT NULL, b Bool, i32 Int32, i64 Int64, u8 Uint8,"
                        + " u16 Uint16, u32 Uint32, txt Utf8, bin String, ts Timestamp, iv Interval, js Json,"
                        + " PRIMARY KEY (id))");
        Instant at = Instant.parse("2026-01-02T03:04:05.123456Z");
        Params p = Params.create()
                .put("$id", PrimitiveValue.newUint64(Long.parseUnsignedLong("18446744073709551615")))
                .put("$b", PrimitiveValue.newBool(true))
                .put("$i32", PrimitiveValue.newInt32(-7))
                .put("$i64", PrimitiveValue.newInt64(Long.MIN_VALUE))
                .put("$u8", PrimitiveValue.newUint8(200))
                .put("$u16", PrimitiveValue.newUint16(65000))
                .put("$u32", PrimitiveValue.newUint32(4_000_000_000L))
                .put("$txt", PrimitiveValue.newText("héllo"))
                .put("$bin", PrimitiveValue.newBytes(new byte[] {0, (byte) 0xff}))
                .put("$ts", PrimitiveValue.newTimestamp(at))
                .put("$iv", PrimitiveValue.newInterval(Duration.ofMillis(-1500)))
                .put("$js", PrimitiveValue.newJson("{\"a\":1}"));
        ok(
                "DECLARE $id AS Uint64; DECLARE $b AS Bool; DECLARE $i32 AS Int32; DECLARE $i64 AS Int64;"
                        + " DECLARE $u8 AS Uint8; DECLARE $u16 AS Uint16; DECLARE $u32 AS Uint32; DECLARE $txt AS Utf8;"
                        + " DECLARE $bin AS String; DECLARE $ts AS Timestamp; DECLARE $iv AS Interval; DECLARE $js AS Json;"
                        + " UPSERT INTO " + t + " (id, b, i32, i64, u8, u16, u32, txt, bin, ts, iv, js)"
                        + " VALUES ($id, $b, $i32, $i64, $u8, $u16, $u32, $txt, $bin, $ts, $iv, $js);",
                p);
        ResultSetReader rs = ok("SELECT id, b, i32, i64, u8, u16, u32, txt, bin, ts, iv, js FROM " + t)
                .getResultSet(0);
        assertThat(rs.next()).isTrue();
        assertThat(rs.getColumn("id").getUint64()).isEqualTo(-1L);
        assertThat(rs.getColumn("b").getBool()).isTrue();
        assertThat(rs.getColumn("i32").getInt32()).isEqualTo(-7);
        assertThat(rs.getColumn("i64").getInt64()).isEqualTo(Long.MIN_VALUE);
        assertThat(rs.getColumn("u8").getUint8()).isEqualTo(200);
        assertThat(rs.getColumn("u16").getUint16()).isEqualTo(65000);
        assertThat(rs.getColumn("u32").getUint32()).isEqualTo(4_000_000_000L);
        assertThat(rs.getColumn("txt").getText()).isEqualTo("héllo");
        assertThat(rs.getColumn("bin").getBytes()).containsExactly(0, 0xff);
        assertThat(rs.getColumn("ts").getTimestamp()).isEqualTo(at);
        assertThat(rs.getColumn("iv").getInterval()).isEqualTo(Duration.ofMillis(-1500));
        assertThat(rs.getColumn("js").getJson()).isEqualTo("{\"a\":1}");
        assertThat(rs.getColumnType(1).toString()).isEqualTo("Bool?"); // nullable columns read as Optional
    }

    @Test
    void upsertKeepsUnlistedColumnsReplaceResetsThem() {
        String t = table("kv", "CREATE TABLE $T (k Int32 NOT NULL, a Utf8, b Utf8, PRIMARY KEY (k))");
        ok("UPSERT INTO " + t + " (k, a, b) VALUES (1, 'a1', 'b1'), (2, 'a2', 'b2')");
        ok("UPSERT INTO " + t + " (k, a) VALUES (1, 'A1')");
        ok("REPLACE INTO " + t + " (k, a) VALUES (2, 'A2')");
        ResultSetReader rs = ok("SELECT k, a, b FROM " + t + " ORDER BY k").getResultSet(0);
        assertThat(rs.next()).isTrue();
        assertThat(rs.getColumn("a").getText()).isEqualTo("A1");
        assertThat(rs.getColumn("b").getText()).isEqualTo("b1");
        assertThat(rs.next()).isTrue();
        assertThat(rs.getColumn("a").getText()).isEqualTo("A2");
        assertThat(rs.getColumn("b").isOptionalItemPresent()).isFalse();
    }

    @Test
    void insertOfAnExistingKeyFailsWithPreconditionFailedAndWritesNothing() {
        String t = table("ins", "CREATE TABLE $T (k Int32 NOT NULL, v Utf8, PRIMARY KEY (k))");
        ok("INSERT INTO " + t + " (k, v) VALUES (1, 'one')");
        assertThat(fails("INSERT INTO " + t + " (k, v) VALUES (2, 'two'), (1, 'again')"))
                .isEqualTo(StatusCode.PRECONDITION_FAILED);
        assertThat(ids(ok("SELECT k FROM " + t))).containsExactly(1L);
        assertThat(fails(
                        "INSERT INTO " + t + " (k, v) VALUES (3, 'x'); INSERT INTO " + t + " (k, v) VALUES (3, 'y');",
                        TxMode.NONE,
                        Params.empty()))
                .isEqualTo(StatusCode.PRECONDITION_FAILED);
        assertThat(ids(ok("SELECT k FROM " + t))).containsExactly(1L);
    }

    @Test
    void upsertFromAsTableMatchesStructMembersByName() {
        String t = table("rows", "CREATE TABLE $T (id Uint64 NOT NULL, title Utf8, PRIMARY KEY (id))");
        StructType row = StructType.of("title", PrimitiveType.Text, "id", PrimitiveType.Uint64);
        ListValue rows = ListType.of(row)
                .newValue(List.of(
                        row.newValue(Map.of("id", PrimitiveValue.newUint64(2), "title", PrimitiveValue.newText("two"))),
                        row.newValue(
                                Map.of("id", PrimitiveValue.newUint64(1), "title", PrimitiveValue.newText("one")))));
        ok(
                "DECLARE $rows AS List<Struct<id: Uint64, title: Utf8>>; UPSERT INTO " + t
                        + " SELECT * FROM AS_TABLE($rows);",
                Params.of("$rows", rows));
        ResultSetReader rs = ok("SELECT title FROM " + t + " WHERE id = 2").getResultSet(0);
        assertThat(rs.next()).isTrue();
        assertThat(rs.getColumn(0).getText()).isEqualTo("two");
    }

    @Test
    void whereOrderByAndLimitSelectTheRows() {
        String t = table("w", "CREATE TABLE $T (a Int32 NOT NULL, b Int32 NOT NULL, c Utf8, PRIMARY KEY (a, b))");
        ok("UPSERT INTO " + t + " (a, b, c) VALUES (1, 1, 'x'), (1, 2, NULL), (1, 3, 'y'), (2, 1, 'z'), (3, 1, 'x')");
        assertThat(ids(ok("SELECT b FROM " + t + " WHERE a = 1 AND b >= 2 ORDER BY b")))
                .containsExactly(2L, 3L);
        assertThat(ids(ok("SELECT b FROM " + t + " WHERE a = 1 AND b < 3 ORDER BY b DESC")))
                .containsExactly(2L, 1L);
        assertThat(ids(ok("SELECT a FROM " + t + " WHERE a > 1 AND a <= 3 ORDER BY a")))
                .containsExactly(2L, 3L);
        assertThat(ids(ok("SELECT b FROM " + t + " WHERE a = 1 AND c IS NULL"))).containsExactly(2L);
        assertThat(ids(ok("SELECT a FROM " + t + " WHERE c = 'x' ORDER BY a"))).containsExactly(1L, 3L);
        ListValue in = ListValue.of(PrimitiveValue.newInt32(3), PrimitiveValue.newInt32(2));
        assertThat(ids(ok(
                        "DECLARE $in AS List<Int32>; SELECT a FROM " + t + " WHERE a IN $in AND b = 1 ORDER BY a",
                        Params.of("$in", in))))
                .containsExactly(2L, 3L);
        assertThat(ids(ok("SELECT a FROM " + t + " ORDER BY a DESC LIMIT 2"))).containsExactly(3L, 2L);
        assertThat(ok("SELECT * FROM " + t + " WHERE a = 9").getResultSet(0).getRowCount())
                .isZero();
    }

    @Test
    void aSecondaryIndexIsReadThroughView() {
        String t = table(
                "idx",
                "CREATE TABLE $T (id Int32 NOT NULL, owner Utf8, at Timestamp, payload Utf8,"
                        + " INDEX by_owner GLOBAL SYNC ON (owner, at) COVER (payload), PRIMARY KEY (id))");
        ok(
                "UPSERT INTO " + t
                        + " (id, owner, at, payload) VALUES (1, 'ann', Timestamp('2026-01-01T00:00:03Z'), 'p1'),"
                        + " (2, 'bob', Timestamp('2026-01-01T00:00:01Z'), 'p2'), (3, 'ann', Timestamp('2026-01-01T00:00:01Z'), 'p3')");
        ok("UPDATE " + t + " SET owner = 'bob' WHERE id = 1");
        assertThat(ids(ok("SELECT id FROM " + t + " VIEW by_owner WHERE owner = 'ann'")))
                .containsExactly(3L);
        assertThat(ids(ok("SELECT id FROM " + t + " VIEW by_owner WHERE owner = 'bob' ORDER BY at")))
                .containsExactly(2L, 1L);
        QueryReader warned = ok("SELECT * FROM " + t + " VIEW by_owner WHERE id = 1");
        assertThat(warned.getResultSet(0).getRowCount()).isEqualTo(1);
        assertThat(warned.getIssueList().toString()).contains("2503");
    }

    @Test
    void updateAndDeleteChangeTheRowsTheirWhereSelects() {
        String t = table("ud", "CREATE TABLE $T (id Int64 NOT NULL, n Int64, PRIMARY KEY (id))");
        ok("UPSERT INTO " + t + " (id, n) VALUES (1, 10), (2, 20), (3, 30)");
        ok("UPDATE " + t + " SET n = n + 1 WHERE id >= 2");
        ok("DELETE FROM " + t + " WHERE n = 10");
        ResultSetReader rs = ok("SELECT id, n FROM " + t + " ORDER BY id").getResultSet(0);
        assertThat(rs.getRowCount()).isEqualTo(2);
        rs.next();
        assertThat(rs.getColumn("n").getInt64()).isEqualTo(21);
        ok("DELETE FROM " + t);
        assertThat(ok("SELECT id FROM " + t).getResultSet(0).getRowCount()).isZero();
    }

    @Test
    void severalStatementsGiveOneResultSetEachAndSeeEachOthersWrites() {
        String t = table("multi", "CREATE TABLE $T (id Int32 NOT NULL, PRIMARY KEY (id))");
        QueryReader r = ok("SELECT id FROM " + t + "; INSERT INTO " + t + " (id) VALUES (1); SELECT id FROM " + t + ";"
                + " INSERT INTO " + t + " (id) VALUES (2); SELECT id FROM " + t + " ORDER BY id;");
        assertThat(r.getResultSetCount()).isEqualTo(3);
        assertThat(r.getResultSet(0).getRowCount()).isZero();
        assertThat(r.getResultSet(1).getRowCount()).isEqualTo(1);
        assertThat(r.getResultSet(2).getRowCount()).isEqualTo(2);
    }

    @Test
    void missingTablesAndNotNullViolationsAreRefusedAsYdbRefusesThem() {
        assertThat(fails("SELECT * FROM " + prefix + "absent")).isEqualTo(StatusCode.SCHEME_ERROR);
        String t = table("nn", "CREATE TABLE $T (id Int32 NOT NULL, v Utf8 NOT NULL, PRIMARY KEY (id))");
        assertThat(fails("UPSERT INTO " + t + " (id) VALUES (1)")).isEqualTo(StatusCode.BAD_REQUEST);
        assertThat(fails("DECLARE $v AS Utf8?; UPSERT INTO " + t + " (id, v) VALUES (1, $v)"))
                .isEqualTo(StatusCode.BAD_REQUEST);
        assertThat(fails("DECLARE $v AS Utf8; SELECT $v")).isEqualTo(StatusCode.BAD_REQUEST); // declared, not given
        assertThat(fails(
                        "CREATE TABLE " + prefix + "x (id Int32, PRIMARY KEY (id))",
                        TxMode.SERIALIZABLE_RW,
                        Params.empty()))
                .isEqualTo(StatusCode.PRECONDITION_FAILED);
        assertThat(fails("SELEKT 1")).isEqualTo(StatusCode.GENERIC_ERROR);
    }

    @Test
    void constructsOutsideTheSubsetAreRefusedNamingThem() {
        assumeTrue(embedded(), "real YDB runs these constructs");
        String t = table("ref", "CREATE TABLE $T (id Int32 NOT NULL, PRIMARY KEY (id))");
        for (String q : List.of(
                "SELECT COUNT(*) FROM " + t,
                "SELECT a.id FROM " + t + " AS a JOIN " + t + " AS b ON a.id = b.id",
                "SELECT id FROM " + t + " GROUP BY id",
                "PRAGMA TablePathPrefix = '/x'")) {
            var r = query(q, TxMode.SERIALIZABLE_RW);
            assertThat(r.getStatus().getCode()).as(q).isEqualTo(StatusCode.UNSUPPORTED);
            assertThat(r.getStatus().getIssues()[0].getMessage()).as(q).contains("Not supported");
        }
    }

    @Test
    void ttlDeletesExpiredRowsInTheBackground() {
        assumeTrue(fastTtl(), "YDB sweeps TTL every hour by default (at least every 15 min)");
        String t = table(
                "ttl",
                "CREATE TABLE $T (id Int32 NOT NULL, at Timestamp, PRIMARY KEY (id))"
                        + " WITH (TTL = Interval('PT1S') ON at)");
        Params p = Params.of(
                "$old",
                PrimitiveValue.newTimestamp(Instant.now().minus(1, ChronoUnit.HOURS)),
                "$new",
                PrimitiveValue.newTimestamp(Instant.now().plus(1, ChronoUnit.HOURS)));
        ok("UPSERT INTO " + t + " (id, at) VALUES (1, $old), (2, $new), (3, NULL)", p);
        await().atMost(PATIENCE)
                .untilAsserted(() -> assertThat(ids(ok("SELECT id FROM " + t + " ORDER BY id")))
                        .containsExactly(2L, 3L));
    }
}
