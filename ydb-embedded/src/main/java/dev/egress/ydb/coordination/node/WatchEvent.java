package dev.egress.ydb.coordination.node;

/**
 * What a change did to a semaphore, as the flags of the {@code describe_semaphore_changed} it fires. A
 * watcher of data or owners hears an event that touches what it watches; YDB's {@code NotifyWatchers}
 * sends the flags of the event, not of the watch, so a deletion tells both kinds of watchers both flags.
 */
enum WatchEvent {
    /** The semaphore's own data was updated. */
    DATA_CHANGED(true, false),
    /** An owner came, went, shrank or replaced its data. */
    OWNERS_CHANGED(false, true),
    /** The semaphore is gone (deleted, or an ephemeral one emptied). */
    DELETED(true, true);

    private final boolean dataChanged;
    private final boolean ownersChanged;

    WatchEvent(boolean dataChanged, boolean ownersChanged) {
        this.dataChanged = dataChanged;
        this.ownersChanged = ownersChanged;
    }

    boolean dataChanged() {
        return dataChanged;
    }

    boolean ownersChanged() {
        return ownersChanged;
    }
}
