package dev.egress.app.delivery.ydb;

/**
 * The delivery tables (docs/delivery-store.md), created idempotently. Names carry a prefix so that tests on one
 * database, and several deployments, keep their own tables.
 *
 * <p>Why this shape: the primary key {@code (tenant_id, slot)} holds the {@code Idempotency-Key}, so the database,
 * not an App's memory, makes a key name one record cluster-wide. {@code due_at} is the one time workers look at: a
 * claim moves it to the lease's end, so an expired lease is simply a due record again and needs no sweeper. The
 * indexes are synchronous, so a claim takes the record out of the due range within its own commit; {@code by_status}
 * lets the operators' count of dead records read only those. Finished records
 * and their attempts carry {@code expire_at} (TTL); live ones keep it NULL, which never expires.
 *
 * <p>The claims table is routing's, not delivery's: it lives here because this is App's writable database. One row
 * per standing claim of an IP by a Border ({@code dev.egress.app.routing.ClaimRecords}); the key is the pair, so
 * storing a claim twice is one row, and a move deletes the other rows of one IP, a key prefix. No TTL: a claim ends
 * only by an operator's hand.
 *
 * @param deliveries the deliveries table's name
 * @param attempts   the attempts table's name
 * @param claims     the claims table's name
 */
record DeliverySchema(String deliveries, String attempts, String claims) {

    /**
     * The schema for a prefix.
     *
     * @param prefix prepended to every table name ({@code ""} for none)
     * @return the names
     */
    static DeliverySchema withPrefix(String prefix) {
        if (!prefix.matches("[A-Za-z0-9_/]*")) {
            throw new IllegalArgumentException(
                    "table prefix: '%s' (expected: letters, digits, _ or /)".formatted(prefix));
        }
        return new DeliverySchema(prefix + "deliveries", prefix + "delivery_attempts", prefix + "ip_claims");
    }

    String createDeliveries() {
        return """
                CREATE TABLE IF NOT EXISTS `%s` (
                    tenant_id Utf8 NOT NULL,
                    slot Utf8 NOT NULL,
                    id Utf8 NOT NULL,
                    fingerprint Utf8 NOT NULL,
                    request String NOT NULL,
                    status Utf8 NOT NULL,
                    bucket Int32 NOT NULL,
                    due_at Timestamp,
                    lease_owner Utf8,
                    lease_until Timestamp,
                    series Int32 NOT NULL,
                    attempts Int32 NOT NULL,
                    created_at Timestamp NOT NULL,
                    updated_at Timestamp NOT NULL,
                    expire_at Timestamp,
                    INDEX by_id GLOBAL SYNC ON (id),
                    INDEX by_due GLOBAL SYNC ON (bucket, due_at),
                    INDEX by_tenant GLOBAL SYNC ON (tenant_id, created_at),
                    INDEX by_status GLOBAL SYNC ON (status, tenant_id),
                    PRIMARY KEY (tenant_id, slot)
                ) WITH (TTL = Interval('PT0S') ON expire_at)""".formatted(deliveries);
    }

    String createAttempts() {
        return """
                CREATE TABLE IF NOT EXISTS `%s` (
                    tenant_id Utf8 NOT NULL,
                    slot Utf8 NOT NULL,
                    series Int32 NOT NULL,
                    attempt_no Int32 NOT NULL,
                    attempted_at Timestamp NOT NULL,
                    egress_ip Utf8,
                    border_id Utf8,
                    outcome Utf8 NOT NULL,
                    reason Utf8,
                    target_status Int32,
                    duration_ms Int64 NOT NULL,
                    excerpt Utf8,
                    expire_at Timestamp,
                    PRIMARY KEY (tenant_id, slot, series, attempt_no)
                ) WITH (TTL = Interval('PT0S') ON expire_at)""".formatted(attempts);
    }

    String createClaims() {
        return """
                CREATE TABLE IF NOT EXISTS `%s` (
                    ip Utf8 NOT NULL,
                    border_id Utf8 NOT NULL,
                    seen_at Timestamp NOT NULL,
                    PRIMARY KEY (ip, border_id)
                )""".formatted(claims);
    }
}
