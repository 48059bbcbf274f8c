package dev.egress.app.delivery.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.egress.app.delivery.Attempt;
import dev.egress.app.delivery.DeliveryPage;
import dev.egress.app.delivery.DeliveryRecord;
import dev.egress.app.delivery.DeliveryStatus;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** The JSON of durable delivery's API: what a caller sees of a stored delivery and its attempts. */
final class DeliveryViews {

    private DeliveryViews() {}

    /**
     * The answer of an accepted or re-sent delivery.
     *
     * @param id     its id
     * @param status where it stands
     */
    record Accepted(String id, String status) {}

    /**
     * One delivery with its attempt log.
     *
     * @param id            its id ({@code webhook-id})
     * @param tenantId      its tenant
     * @param status        pending, delivering, delivered or dead
     * @param createdAt     when it was accepted
     * @param nextAttemptAt when it is next due, absent when it is finished or being attempted
     * @param series        the current attempt series (a retry starts the next)
     * @param attempts      every attempt, every series, oldest first
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Delivery(
            String id,
            String tenantId,
            String status,
            Instant createdAt,
            @Nullable Instant nextAttemptAt,
            int series,
            List<AttemptView> attempts) {

        static Delivery of(DeliveryRecord r, List<Attempt.Logged> log) {
            return new Delivery(
                    r.id(),
                    r.tenantId(),
                    r.status().wireName(),
                    r.createdAt(),
                    dueOf(r),
                    r.series(),
                    log.stream().map(AttemptView::of).toList());
        }
    }

    /**
     * One attempt.
     *
     * @param series         its series
     * @param number         its number in the series, from 1
     * @param at             when it started
     * @param egressIp       the IP it left from, absent when nothing left
     * @param borderId       the Border that carried it, absent when none
     * @param outcome        delivered, retry or dead
     * @param reason         App's problem slug when the target did not answer, absent otherwise
     * @param targetStatus   the target's status, absent when it did not answer
     * @param durationMillis how long it took
     * @param excerpt        the start of the target's answer
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record AttemptView(
            int series,
            int number,
            Instant at,
            @Nullable String egressIp,
            @Nullable String borderId,
            String outcome,
            @Nullable String reason,
            @Nullable Integer targetStatus,
            long durationMillis,
            @Nullable String excerpt) {

        static AttemptView of(Attempt.Logged logged) {
            Attempt a = logged.attempt();
            return new AttemptView(
                    logged.series(),
                    logged.number(),
                    a.at(),
                    a.egressIp(),
                    a.borderId(),
                    a.outcome(),
                    a.reason(),
                    a.targetStatus(),
                    a.duration().toMillis(),
                    a.excerpt());
        }
    }

    /**
     * One delivery in a listing.
     *
     * @param id            its id
     * @param tenantId      its tenant
     * @param status        where it stands
     * @param createdAt     when it was accepted
     * @param nextAttemptAt when it is next due, absent when it is finished or being attempted
     * @param attempts      attempts made in the current series
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Listed(
            String id,
            String tenantId,
            String status,
            Instant createdAt,
            @Nullable Instant nextAttemptAt,
            int attempts) {}

    /**
     * A page of a listing.
     *
     * @param deliveries the deliveries, oldest first
     * @param next       the cursor of the next page, absent on the last
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Page(List<Listed> deliveries, @Nullable String next) {

        static Page of(DeliveryPage page) {
            return new Page(
                    page.records().stream()
                            .map(r -> new Listed(
                                    r.id(), r.tenantId(), r.status().wireName(), r.createdAt(), dueOf(r), r.attempts()))
                            .toList(),
                    page.next());
        }
    }

    /**
     * The answer of a window's retry.
     *
     * @param retried how many deliveries were sent again
     */
    record Retried(int retried) {}

    /**
     * A window of a tenant's finished deliveries to send again.
     *
     * @param status dead (the default) or delivered
     * @param since  accepted at or after (default: any time)
     * @param until  accepted before (default: now)
     */
    record RetryWindow(
            @Nullable String status,
            @Nullable Instant since,
            @Nullable Instant until) {}

    /** A pending record's due time; a leased one is being attempted, its due time is only its lease's end. */
    private static @Nullable Instant dueOf(DeliveryRecord r) {
        return r.status() == DeliveryStatus.PENDING ? r.dueAt() : null;
    }
}
