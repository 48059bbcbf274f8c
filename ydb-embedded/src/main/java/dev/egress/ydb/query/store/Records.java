package dev.egress.ydb.query.store;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.NullValue;
import dev.egress.ydb.query.value.Values;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.zip.CRC32C;
import tech.ydb.proto.ValueProtos;

/**
 * The data directory's record format. A record is a {@code Ydb.Value} (the wire encoding of values is reused, so no
 * second serialisation of every type exists): {@code ["C", version, ddl]} creates a table, {@code ["D", version,
 * path]} drops one, {@code ["W", version, [path, key, row|NULL]…]} is one commit.
 */
final class Records {

    private static final int CHUNK = 1000;

    private Records() {}

    static ValueProtos.Value ddl(long version, String ddl) {
        return header("C", version).addItems(text(ddl)).build();
    }

    static ValueProtos.Value drop(long version, String path) {
        return header("D", version).addItems(text(path)).build();
    }

    static ValueProtos.Value commit(long version, Map<Table, NavigableMap<Object[], Object[]>> writes) {
        ValueProtos.Value.Builder b = header("W", version);
        writes.forEach((table, rows) -> rows.forEach(
                (key, row) -> b.addItems(write(table.schema(), key, row == Transaction.DELETED ? null : row))));
        return b.build();
    }

    private static ValueProtos.Value write(TableSchema schema, Object[] key, Object[] row) {
        ValueProtos.Value.Builder k = ValueProtos.Value.newBuilder();
        for (int i = 0; i < key.length; i++) {
            k.addItems(Values.toProto(key[i], schema.type(schema.key()[i])));
        }
        ValueProtos.Value.Builder w =
                ValueProtos.Value.newBuilder().addItems(text(schema.path())).addItems(k);
        if (row == null) {
            w.addItems(ValueProtos.Value.newBuilder().setNullFlagValue(NullValue.NULL_VALUE));
        } else {
            ValueProtos.Value.Builder r = ValueProtos.Value.newBuilder();
            for (int i = 0; i < row.length; i++) {
                r.addItems(Values.toProto(row[i], schema.type(i)));
            }
            w.addItems(r);
        }
        return w.build();
    }

    private static ValueProtos.Value.Builder header(String kind, long version) {
        return ValueProtos.Value.newBuilder()
                .addItems(text(kind))
                .addItems(ValueProtos.Value.newBuilder().setUint64Value(version));
    }

    private static ValueProtos.Value text(String s) {
        return ValueProtos.Value.newBuilder().setTextValue(s).build();
    }

    static int write(FileChannel ch, ValueProtos.Value record) throws IOException {
        ByteBuffer b = Wal.frame(record.toByteArray());
        int n = b.remaining();
        while (b.hasRemaining()) {
            ch.write(b);
        }
        return n;
    }

    /** Writes every table as of {@code version}: its DDL, then its rows in chunks. */
    static void snapshot(FileChannel out, long version, List<Table> tables) throws IOException {
        for (Table t : tables) {
            write(out, ddl(version, t.schema().ddl()));
            ValueProtos.Value.Builder b = header("W", version);
            int n = 0;
            for (Map.Entry<Object[], Object[]> e : t.all(version).entrySet()) {
                b.addItems(write(t.schema(), e.getKey(), e.getValue()));
                if (++n % CHUNK == 0) {
                    write(out, b.build());
                    b = header("W", version);
                }
            }
            write(out, b.build());
        }
        write(out, header("V", version).build());
    }

    /**
     * Replays records newer than {@code after}; returns the last version seen. A torn or corrupt tail of the log
     * ({@code cut}) is cut off; in a snapshot it is an error.
     */
    static long replay(FileChannel ch, Recovery into, long after, boolean cut) throws IOException {
        long last = after;
        long pos = 0;
        long size = ch.size();
        ByteBuffer head = ByteBuffer.allocate(8);
        while (pos + 8 <= size) {
            head.clear();
            ch.read(head, pos);
            head.flip();
            int len = head.getInt();
            int crc = head.getInt();
            if (len < 0 || pos + 8 + len > size) {
                break;
            }
            ByteBuffer body = ByteBuffer.allocate(len);
            ch.read(body, pos + 8);
            CRC32C check = new CRC32C();
            check.update(body.array());
            if ((int) check.getValue() != crc) {
                break;
            }
            ValueProtos.Value record = parse(body.array());
            long version = record.getItems(1).getUint64Value();
            if (version > after || !cut) {
                into.replay(record);
                last = Math.max(last, version);
            }
            pos += 8 + len;
        }
        if (pos < size) {
            if (!cut) {
                throw new IOException("corrupt snapshot at byte " + pos);
            }
            ch.truncate(pos); // the record a crash interrupted was never acknowledged
        }
        return last;
    }

    private static ValueProtos.Value parse(byte[] bytes) throws IOException {
        try {
            return ValueProtos.Value.parseFrom(bytes);
        } catch (InvalidProtocolBufferException e) {
            throw new IOException("unreadable record", e);
        }
    }
}
