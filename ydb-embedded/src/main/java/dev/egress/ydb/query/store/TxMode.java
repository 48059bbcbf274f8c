package dev.egress.ydb.query.store;

/** YDB's transaction modes as the Query service names them. */
public enum TxMode {
    SERIALIZABLE_RW,
    SNAPSHOT_RO,
    ONLINE_RO,
    STALE_RO,
    /** No tx_control: an implicit transaction over the whole query text (DDL allowed). */
    IMPLICIT;

    public boolean readOnly() {
        return this == SNAPSHOT_RO || this == ONLINE_RO || this == STALE_RO;
    }
}
