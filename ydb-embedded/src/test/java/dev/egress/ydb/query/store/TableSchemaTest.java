package dev.egress.ydb.query.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.egress.ydb.query.sql.Parser;
import dev.egress.ydb.query.sql.Statement;
import org.junit.jupiter.api.Test;

/** The schema's DDL is what the data directory keeps: it must parse back into the same schema. */
class TableSchemaTest {

    private static TableSchema schema(String ddl) {
        Statement.CreateTable c = (Statement.CreateTable) Parser.parse(ddl).get(0);
        return TableSchema.of(c.table().startsWith("/") ? c.table() : "/local/" + c.table(), c);
    }

    @Test
    void theDdlOfASchemaParsesBackIntoTheSameSchema() {
        TableSchema first = schema("CREATE TABLE events (tenant Utf8 NOT NULL, id Uint64 NOT NULL, at Timestamp,"
                + " body Json, attempts Int32, INDEX by_at GLOBAL ASYNC ON (at) COVER (attempts),"
                + " INDEX by_tenant GLOBAL ON (tenant, at), PRIMARY KEY (tenant, id))"
                + " WITH (TTL = Interval('PT1H30M0.5S') ON at)");
        TableSchema again = schema(first.ddl());
        assertThat(again.ddl()).isEqualTo(first.ddl());
        assertThat(again.key()).containsExactly(0, 1);
        assertThat(again.ttl()).isEqualTo(new TableSchema.Ttl(2, 5_400_500_000L));
        assertThat(again.index("by_at").async()).isTrue();
        assertThat(again.index("by_tenant").columns()).containsExactly(0, 2);
        assertThat(again.columns().get(3).type().optional()).isTrue();
    }

    @Test
    void keysAndIndexesRefuseWhatYdbRefuses() {
        assertThatThrownBy(() -> schema("CREATE TABLE t (id Double, PRIMARY KEY (id))"))
                .hasMessageContaining("cannot be a key column of primary key");
        assertThatThrownBy(() -> schema("CREATE TABLE t (id Int32, j Json, INDEX i GLOBAL ON (j), PRIMARY KEY (id))"))
                .hasMessageContaining("cannot be a key column of index i");
        assertThatThrownBy(() -> schema("CREATE TABLE t (id Int32, PRIMARY KEY (nope))"))
                .hasMessageContaining("Unknown column nope");
        assertThatThrownBy(
                        () -> schema("CREATE TABLE t (id Int32, PRIMARY KEY (id)) WITH (TTL = Interval('PT1S') ON id)"))
                .hasMessageContaining("TTL on a Int32 column");
    }
}
