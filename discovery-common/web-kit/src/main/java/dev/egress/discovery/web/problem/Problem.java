package dev.egress.discovery.web.problem;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;

/**
 * One problem answer, the same shape in App and Border: status, a type from the one catalogue, a
 * detail for people, what it says about the target, a typed reason, extra members, and when to try
 * again. Immutable; built with {@link #of} and the withers, so no call site passes positional flags.
 *
 * @param status        the HTTP status of the answer
 * @param type          the problem type
 * @param detail        human-readable detail (never contains secrets), or null
 * @param targetContact what the answer says about the target
 * @param reason        the typed reason, or null
 * @param extra         further members in order (not {@code reason}, not {@code targetContacted})
 * @param retryAfter    sent as {@code Retry-After} when not null
 */
public record Problem(
        HttpStatus status,
        ProblemType type,
        @Nullable String detail,
        TargetContact targetContact,
        @Nullable ProblemReason reason,
        Map<String, Object> extra,
        @Nullable Duration retryAfter) {

    /** Member: whether any byte of the request may have reached the target. */
    public static final String TARGET_CONTACTED = "targetContacted";
    /** Member: the typed reason. */
    public static final String REASON = "reason";

    /** Checks the components; keeps the members' order. */
    public Problem {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(targetContact, "targetContact");
        extra = extra == null || extra.isEmpty() ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(extra));
        if (extra.containsKey(REASON) || extra.containsKey(TARGET_CONTACTED)) {
            throw new IllegalArgumentException("extra: %s (expected: no '%s' or '%s', they are typed components)"
                    .formatted(extra.keySet(), REASON, TARGET_CONTACTED));
        }
    }

    /**
     * A problem with the type's usual status, nothing stated about the target, no reason, no extra member.
     *
     * @param type   the type
     * @param detail the detail, or null
     * @return the problem
     */
    public static Problem of(ProblemType type, String detail) {
        return new Problem(type.status(), type, detail, TargetContact.UNSTATED, null, Map.of(), null);
    }

    /**
     * The slug of the type.
     *
     * @return e.g. {@code target-denied}
     */
    public String slug() {
        return type.slug();
    }

    /**
     * Members beyond type, title, status, detail and {@code targetContacted}: the reason (in its wire
     * form) first, then the extra members.
     *
     * @return an unmodifiable map in member order
     */
    public Map<String, Object> properties() {
        if (reason == null) {
            return extra;
        }
        Map<String, Object> all = new LinkedHashMap<>();
        all.put(REASON, reason.code());
        all.putAll(extra);
        return Collections.unmodifiableMap(all);
    }

    /**
     * The same problem with another status.
     *
     * @param newStatus the status
     * @return the problem
     */
    public Problem withStatus(HttpStatus newStatus) {
        return new Problem(newStatus, type, detail, targetContact, reason, extra, retryAfter);
    }

    /**
     * The same problem stating what reached the target.
     *
     * @param contact the contact
     * @return the problem
     */
    public Problem withTargetContact(TargetContact contact) {
        return new Problem(status, type, detail, contact, reason, extra, retryAfter);
    }

    /**
     * The same problem with a reason.
     *
     * @param newReason the reason, or null for none
     * @return the problem
     */
    public Problem withReason(@Nullable ProblemReason newReason) {
        return new Problem(status, type, detail, targetContact, newReason, extra, retryAfter);
    }

    /**
     * The same problem with one more member (after the existing ones).
     *
     * @param name  the member name
     * @param value its value, not null
     * @return the problem
     */
    public Problem with(String name, Object value) {
        Map<String, Object> more = new LinkedHashMap<>(extra);
        more.put(name, Objects.requireNonNull(value, name));
        return new Problem(status, type, detail, targetContact, reason, more, retryAfter);
    }

    /**
     * The same problem with a {@code Retry-After}.
     *
     * @param after the delay, or null for none
     * @return the problem
     */
    public Problem withRetryAfter(@Nullable Duration after) {
        return new Problem(status, type, detail, targetContact, reason, extra, after);
    }
}
