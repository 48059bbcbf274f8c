package dev.egress.ydb.query.exec;

import dev.egress.ydb.query.YdbError;
import dev.egress.ydb.query.sql.Statement;
import dev.egress.ydb.query.store.Database;
import dev.egress.ydb.query.store.Table;
import dev.egress.ydb.query.store.TableSchema;
import dev.egress.ydb.query.store.Transaction;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tech.ydb.proto.StatusCodesProtos.StatusIds.StatusCode;
import tech.ydb.proto.ValueProtos;
import tech.ydb.proto.YdbIssueMessage.IssueMessage;

/**
 * Runs parsed statements: scheme statements one by one outside any transaction, data statements in order inside
 * one transaction (their effects buffered in it, visible to the statements after them).
 */
public final class Executor {

    private final Database db;

    public Executor(Database db) {
        this.db = db;
    }

    /** Does the text hold scheme statements (CREATE/DROP)? Mixed with data statements it is refused. */
    public static boolean ddl(List<Statement> statements) {
        boolean ddl = statements.stream().anyMatch(Statement::ddl);
        boolean data = statements.stream().anyMatch(s -> !s.ddl() && !(s instanceof Statement.Declare));
        if (ddl && data) {
            throw new YdbError(
                    StatusCode.GENERIC_ERROR,
                    2009,
                    "Queries with mixed data and scheme operations are not supported. Use separate queries for"
                            + " different types of operations.");
        }
        return ddl;
    }

    /** Binds parameters (names without {@code $}) against the DECLAREs: exact types, missing optionals NULL. */
    public static Map<String, TypedValue> bind(List<Statement> statements, Map<String, TypedValue> given) {
        Map<String, TypedValue> params = new HashMap<>(given);
        for (Statement s : statements) {
            if (s instanceof Statement.Declare d) {
                TypedValue v = given.get(d.name());
                if (v == null) {
                    if (!d.type().optional()) {
                        throw YdbError.badRequest("Missing value for parameter: $" + d.name());
                    }
                    params.put(d.name(), new TypedValue(null, d.type()));
                } else if (!v.type().equals(d.type())) {
                    throw YdbError.badRequest("Parameter $" + d.name() + " type mismatch, expected: " + d.type()
                            + ", actual: " + v.type());
                }
            }
        }
        return params;
    }

    /** Runs CREATE/DROP statements; returns the log position to await. */
    public long runDdl(List<Statement> statements) {
        long position = -1;
        for (Statement s : statements) {
            if (s instanceof Statement.CreateTable c) {
                String path = db.path(c.table());
                position = Math.max(position, db.create(TableSchema.of(path, c), c.ifNotExists()));
            } else if (s instanceof Statement.DropTable d) {
                position = Math.max(position, db.drop(d.table(), d.ifExists()));
            }
        }
        return position;
    }

    /** Runs data statements in {@code tx}; returns the result sets (one per SELECT) and warnings. */
    public QueryOutcome runData(List<Statement> statements, Map<String, TypedValue> params, Transaction tx) {
        List<ValueProtos.ResultSet> results = new ArrayList<>();
        List<IssueMessage> warnings = new ArrayList<>();
        Instant now = Instant.now();
        long nowMicros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
        for (Statement s : statements) {
            if (s instanceof Statement.Declare) {
                continue;
            }
            tx.beginStatement();
            if (s instanceof Statement.Select sel) {
                Table table = sel.table() == null ? null : db.table(sel.table());
                Scope scope = new Scope(table == null ? null : table.schema(), params, nowMicros);
                boolean[] unsuitable = new boolean[1];
                results.add(Selects.run(sel, tx, table, scope, db.limits().maxResultRows(), unsuitable));
                if (unsuitable[0]) {
                    warnings.add(unsuitableIndex(sel.view()));
                }
            } else if (s instanceof Statement.Write w) {
                Table table = db.table(w.table());
                Writes.write(w, tx, table, new Scope(table.schema(), params, nowMicros));
            } else if (s instanceof Statement.Update u) {
                Table table = db.table(u.table());
                Writes.update(u, tx, table, new Scope(table.schema(), params, nowMicros));
            } else if (s instanceof Statement.Delete d) {
                Table table = db.table(d.table());
                Writes.delete(d, tx, table, new Scope(table.schema(), params, nowMicros));
            }
        }
        return new QueryOutcome(results, warnings, -1);
    }

    private static IssueMessage unsuitableIndex(String index) {
        // YDB reports the position of the query's start, 1:1 - 1:1 (SDK test testQueryWarnings).
        IssueMessage.Position start =
                IssueMessage.Position.newBuilder().setRow(1).setColumn(1).build();
        IssueMessage inner = IssueMessage.newBuilder()
                .setPosition(start)
                .setEndPosition(start)
                .setIssueCode(2503)
                .setSeverity(2)
                .setMessage("Given predicate is not suitable for used index: " + index)
                .build();
        return IssueMessage.newBuilder()
                .setIssueCode(1060)
                .setSeverity(2)
                .setMessage("Execution")
                .addIssues(inner)
                .build();
    }
}
