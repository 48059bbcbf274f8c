package dev.egress.ydb.query.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.egress.ydb.query.YdbError;
import dev.egress.ydb.query.value.Kind;
import java.util.List;
import org.junit.jupiter.api.Test;
import tech.ydb.proto.StatusCodesProtos.StatusIds.StatusCode;

class ParserTest {

    @Test
    void createTableWithIndexCoverAndTtl() {
        Statement.CreateTable c = (Statement.CreateTable) Parser.parse("--!syntax_v1\n"
                        + "CREATE TABLE IF NOT EXISTS `dir/t` (id UInt64 NOT NULL, owner Text, at Timestamp, body Bytes,"
                        + " INDEX by_owner GLOBAL ASYNC ON (owner, at) COVER (body), PRIMARY KEY (id))"
                        + " WITH (TTL = Interval(\"PT1H\") ON at);")
                .get(0);
        assertThat(c.table()).isEqualTo("dir/t");
        assertThat(c.ifNotExists()).isTrue();
        assertThat(c.columns().get(0).type().kind()).isEqualTo(Kind.UINT64);
        assertThat(c.columns().get(0).type().optional()).isFalse();
        assertThat(c.columns().get(1).type().kind()).isEqualTo(Kind.UTF8);
        assertThat(c.columns().get(1).type().optional()).isTrue();
        assertThat(c.columns().get(3).type().kind()).isEqualTo(Kind.STRING);
        assertThat(c.indexes())
                .containsExactly(new Statement.IndexDef("by_owner", true, List.of("owner", "at"), List.of("body")));
        assertThat(c.ttl()).isEqualTo(new Statement.TtlDef(3_600_000_000L, "at"));
    }

    @Test
    void severalStatementsCommentsAndStrings() {
        List<Statement> s = Parser.parse("DECLARE $rows AS List<Struct<id: Uint64, title: Utf8?>>; /* c */"
                + " UPSERT INTO t SELECT * FROM AS_TABLE($rows); SELECT a AS x, 2 + 3 FROM t VIEW i"
                + " WHERE a IN $ids AND b IS NOT NULL AND c <= 'q\\'s' ORDER BY a DESC LIMIT 10 OFFSET 2;"
                + " UPDATE t SET n = n + 1 WHERE id = 1; DELETE FROM t WHERE id > 3 -- trailing\n");
        assertThat(s).hasSize(5);
        Statement.Declare d = (Statement.Declare) s.get(0);
        assertThat(d.type().toString()).isEqualTo("List<Struct<'id':Uint64,'title':Optional<Utf8>>>");
        assertThat(((Statement.Write) s.get(1)).source()).isEqualTo("rows");
        Statement.Select sel = (Statement.Select) s.get(2);
        assertThat(sel.view()).isEqualTo("i");
        assertThat(sel.items()).hasSize(2);
        assertThat(sel.orderBy().get(0).descending()).isTrue();
        assertThat(sel.where()).isInstanceOf(Expr.Binary.class);
    }

    @Test
    void constructsOutsideTheSubsetAreRefusedByName() {
        assertRefused("SELECT COUNT(*) FROM t", null); // parsed; refused when evaluated
        assertRefused("SELECT * FROM a JOIN b ON a.id = b.id", "JOIN");
        assertRefused("SELECT x FROM t GROUP BY x", "GROUP");
        assertRefused("ALTER TABLE t ADD COLUMN x Int32", "ALTER");
        assertRefused(
                "CREATE TABLE t (id Int32, PRIMARY KEY (id)) WITH (AUTO_PARTITIONING_BY_SIZE = ENABLED)",
                "AUTO_PARTITIONING_BY_SIZE");
        assertRefused("SELECT x FROM t WHERE x LIKE 'a%'", "LIKE");
        assertRefused("$x = 1; SELECT $x", "named expression");
    }

    @Test
    void garbageIsASyntaxErrorWithItsPosition() {
        assertThatThrownBy(() -> Parser.parse("SELECT 1 FROM")).isInstanceOfSatisfying(YdbError.class, e -> {
            assertThat(e.status()).isEqualTo(StatusCode.GENERIC_ERROR);
            assertThat(e.getMessage()).startsWith("1:14: Syntax error");
        });
        assertThatThrownBy(() -> Parser.parse("CREATE TABLE t (id Int32)"))
                .hasMessageContaining("Primary key is required");
    }

    private static void assertRefused(String text, String construct) {
        if (construct == null) {
            assertThat(Parser.parse(text)).hasSize(1);
            return;
        }
        assertThatThrownBy(() -> Parser.parse(text)).isInstanceOfSatisfying(YdbError.class, e -> {
            assertThat(e.status()).isEqualTo(StatusCode.UNSUPPORTED);
            assertThat(e.getMessage()).contains(construct);
        });
    }
}
