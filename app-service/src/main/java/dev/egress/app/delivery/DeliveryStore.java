package dev.egress.app.delivery;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Where durable deliveries live between attempts: the one port the API and the workers use. Every operation is
 * one serializable transaction, retried by the store on conflicts, so two Apps never both win a record: a repeat
 * of an {@code Idempotency-Key} on any App returns the first record, and of two claimers of one due record
 * exactly one gets it. Writes after a claim are compare-and-set on the lease: only its holder may record an
 * attempt. The operations block; call them from a worker thread or a bounded-elastic scheduler.
 *
 * <p>Failures: {@link IdempotencyConflictException}, {@link LeaseLostException}, {@link NotRetryableException};
 * a plain {@link DeliveryStoreException} when the store failed (nothing is known to have changed).
 */
public interface DeliveryStore {

    /**
     * Stores a new delivery already leased to the accepting App (its first attempt is made at once), or returns the
     * record its key already names.
     *
     * @param delivery the accepted delivery
     * @param owner    the accepting App
     * @param now      the time of acceptance
     * @param lease    how long the accepting App holds it
     * @return the stored record and whether this call created it
     * @throws IdempotencyConflictException when the key names a record with another fingerprint
     */
    Accepted accept(NewDelivery delivery, String owner, Instant now, Duration lease);

    /**
     * Claims up to {@code limit} records of a bucket that are due at {@code now}: pending ones whose time has come
     * and leased ones whose lease expired.
     *
     * @param bucket the bucket
     * @param owner  the claiming App
     * @param now    the time of the claim
     * @param lease  how long the claimer holds them
     * @param limit  the most records claimed
     * @return the claimed records, leased to {@code owner}, earliest due first
     */
    default List<DeliveryRecord> claimDue(int bucket, String owner, Instant now, Duration lease, int limit) {
        return claim(bucket, owner, now, lease, limit).records();
    }

    /**
     * Claims as {@link #claimDue} does, and tells what the claim met: records whose lease had expired (their holder
     * died or stalled) and transactions run again because another App changed the same rows.
     *
     * @param bucket the bucket
     * @param owner  the claiming App
     * @param now    the time of the claim
     * @param lease  how long the claimer holds them
     * @param limit  the most records claimed
     * @return the claimed records and what the claim met
     */
    Claim claim(int bucket, String owner, Instant now, Duration lease, int limit);

    /**
     * Releases a claimed record without an attempt, due again at {@code at}: a worker that claimed more than it can
     * start soon (its destination backs off, or every slot is taken) hands it back instead of holding the lease.
     *
     * @param key   the record
     * @param owner the App holding it
     * @param at    when it is due again
     * @return the record after the write, pending
     * @throws LeaseLostException when {@code owner} does not hold the lease
     */
    DeliveryRecord postpone(DeliveryKey key, String owner, Instant at);

    /**
     * Records an attempt and what follows it: another attempt at a time (the lease is released), delivered or dead.
     *
     * @param key     the record
     * @param owner   the App that made the attempt
     * @param attempt what happened
     * @param next    what follows
     * @param now     the time of the write
     * @return the record after the write
     * @throws LeaseLostException when {@code owner} does not hold the lease
     */
    DeliveryRecord recordAttempt(DeliveryKey key, String owner, Attempt attempt, NextAttempt next, Instant now);

    /**
     * Finds a delivery by id.
     *
     * @param id the delivery's id
     * @return the record, or empty
     */
    Optional<DeliveryRecord> get(String id);

    /**
     * The attempts of a delivery, every series, oldest first.
     *
     * @param key the record
     * @return its attempt log
     */
    List<Attempt.Logged> attempts(DeliveryKey key);

    /**
     * Lists a tenant's deliveries accepted at or after {@code since}, oldest first.
     *
     * @param tenantId the tenant
     * @param status   only this status, or null for all
     * @param since    the earliest acceptance time
     * @param cursor   the previous page's {@link DeliveryPage#next()}, or null for the first page
     * @param limit    the page size
     * @return one page
     */
    DeliveryPage list(
            String tenantId, @Nullable DeliveryStatus status, Instant since, @Nullable String cursor, int limit);

    /**
     * Sends a delivered or dead delivery again: a new series of attempts under the same id, due at {@code now}.
     *
     * @param key the record
     * @param now the time of the request
     * @return the record, pending
     * @throws NotRetryableException when it is pending or delivering
     */
    DeliveryRecord retry(DeliveryKey key, Instant now);

    /**
     * Counts what is waiting, for the operators: due records not leased and dead records, per tenant, and the oldest
     * due time. A read, bounded: it stops after {@code maxRows} rows and then says the counts are lower bounds.
     *
     * @param now     the moment counted at
     * @param buckets the number of buckets (the due records are read bucket by bucket, through the due index)
     * @param maxRows the most rows read
     * @return the counts
     */
    Backlog backlog(Instant now, int buckets, int maxRows);

    /**
     * What {@link #accept} did.
     *
     * @param record  the stored record
     * @param created true when this call stored it, false when the key already named it
     */
    record Accepted(DeliveryRecord record, boolean created) {}

    /**
     * What {@link #claim} did.
     *
     * @param records       the claimed records, leased to the claimer, earliest due first
     * @param leaseExpiries how many of them had been leased to an App whose lease expired
     * @param conflicts     how many times the claim ran again because another transaction changed its rows
     */
    record Claim(List<DeliveryRecord> records, int leaseExpiries, int conflicts) {

        /** Copies the list. */
        public Claim {
            records = List.copyOf(records);
        }
    }
}
