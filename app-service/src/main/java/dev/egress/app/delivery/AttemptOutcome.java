package dev.egress.app.delivery;

import dev.egress.discovery.web.problem.ProblemType;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What one attempt of a durable delivery came to, as App's attempt engine reports it: the target answered
 * (any status), or the attempt ended in one of App's problems (the engine has already moved between Borders
 * where nothing reached the target). {@link #verdict()} is the retry rule, in one place.
 */
public sealed interface AttemptOutcome {

    /**
     * The rule: delivered, try again later, or stop.
     *
     * @return the verdict
     */
    Verdict verdict();

    /** The three verdicts. */
    enum Verdict {
        /** A 2xx: done. */
        DELIVERED,
        /** Anything that may succeed later: the schedule decides when, and whether attempts remain. */
        RETRY_LATER,
        /** Will not succeed: {@code 410 Gone}, or a target the SSRF guard refuses. Given up at once. */
        STOP
    }

    /**
     * The target answered.
     *
     * @param status     its HTTP status
     * @param retryAfter its {@code Retry-After} header's value, or null
     */
    record Answered(int status, @Nullable String retryAfter) implements AttemptOutcome {

        /**
         * The target's answer with its headers.
         *
         * @param status  its status
         * @param headers its headers (any case)
         * @return the outcome
         */
        public static Answered of(int status, Map<String, String> headers) {
            String retryAfter = null;
            for (Map.Entry<String, String> header : headers.entrySet()) {
                if (header.getKey().equalsIgnoreCase("Retry-After")) {
                    retryAfter = header.getValue();
                }
            }
            return new Answered(status, retryAfter);
        }

        /** 2xx is delivered; 410 means the receiver is gone for good; any other status is worth another try. */
        @Override
        public Verdict verdict() {
            if (status >= 200 && status <= 299) {
                return Verdict.DELIVERED;
            }
            return status == 410 ? Verdict.STOP : Verdict.RETRY_LATER;
        }
    }

    /**
     * The attempt ended in one of App's problems, nothing or an unknown part of it having reached the target.
     *
     * @param type the problem's type
     */
    record Failed(ProblemType type) implements AttemptOutcome {

        /** Checks the type. */
        public Failed {
            Objects.requireNonNull(type, "type");
        }

        /**
         * A refused target ({@code target-denied}) is refused again on every try, so it stops at once. Every
         * other failure is retried, {@code no-egress-available} included: for a dedicated tenant that means
         * waiting for one of its own IPs, as routing never picks another, and for the shared pool waiting for
         * any.
         */
        @Override
        public Verdict verdict() {
            return type == ProblemType.TARGET_DENIED ? Verdict.STOP : Verdict.RETRY_LATER;
        }
    }
}
