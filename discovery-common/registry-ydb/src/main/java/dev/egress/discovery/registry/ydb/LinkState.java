package dev.egress.discovery.registry.ydb;

/** Where a watcher's registry session stands (exported as {@code egress.registry.session.state}). */
enum LinkState {
    /** Building the transport, creating node and semaphore, starting a session. */
    CONNECTING,
    /** Session up: watching and polling. */
    CONNECTED,
    /** The stream broke; the SDK is reattaching the same session. */
    RECONNECTING,
    /** No session; a new one is opened after a backoff. */
    DISCONNECTED,
    /** Closed by the owner. */
    CLOSED
}
