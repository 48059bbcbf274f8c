package dev.egress.app.delivery.worker;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.jspecify.annotations.Nullable;

/**
 * Per-destination admission of attempts: at most {@code maxPerDestination} at once to one scheme, host and port,
 * and a back-off for a destination whose attempts keep failing, so that its due records wait and do not take the
 * slots of every other destination (the worker never blocks on one host). State lives only while a destination
 * has attempts in flight or is backing off.
 */
final class Destinations {

    /** Failures in a row before a destination backs off: a single failure is the schedule's business. */
    static final int FAILURES_BEFORE_BACKOFF = 3;

    private static final Duration FIRST_BACKOFF = Duration.ofSeconds(1);
    private static final Duration MAX_BACKOFF = Duration.ofMinutes(1);

    private final int maxPerDestination;
    private final ConcurrentMap<String, State> states = new ConcurrentHashMap<>();

    Destinations(int maxPerDestination) {
        this.maxPerDestination = maxPerDestination;
    }

    /**
     * The destination of a URL: scheme, host and port (the default port when none is given).
     *
     * @param url an absolute http(s) URL
     * @return e.g. {@code https://hooks.example.com:443}
     */
    static String of(String url) {
        URI uri = URI.create(url);
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        int port = uri.getPort() >= 0 ? uri.getPort() : scheme.equals("https") ? 443 : 80;
        return scheme + "://" + String.valueOf(uri.getHost()).toLowerCase(Locale.ROOT) + ":" + port;
    }

    /**
     * Takes a place for an attempt, if the destination has one and is not backing off.
     *
     * @param destination the destination
     * @param now         the time
     * @return null when taken, else when to try again
     */
    @Nullable
    Instant acquire(String destination, Instant now) {
        Instant[] refused = new Instant[1];
        states.compute(destination, (key, state) -> {
            State s = state == null ? new State(0, 0, null) : state;
            if (s.backoffUntil != null && now.isBefore(s.backoffUntil)) {
                refused[0] = s.backoffUntil;
                return s;
            }
            if (s.inFlight >= maxPerDestination) {
                refused[0] = now.plus(FIRST_BACKOFF);
                return s;
            }
            return new State(s.inFlight + 1, s.failures, s.backoffUntil);
        });
        return refused[0];
    }

    /**
     * Gives a place back.
     *
     * @param destination the destination
     * @param failed      whether the attempt failed (anything but a 2xx or a final answer)
     * @param now         the time
     */
    void release(String destination, boolean failed, Instant now) {
        states.computeIfPresent(destination, (key, s) -> {
            int failures = failed ? s.failures + 1 : 0;
            Instant until = s.backoffUntil;
            if (!failed) {
                until = null;
            } else if (failures >= FAILURES_BEFORE_BACKOFF) {
                long factor = 1L << Math.min(16, failures - FAILURES_BEFORE_BACKOFF);
                Duration wait = FIRST_BACKOFF.multipliedBy(factor);
                until = now.plus(wait.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : wait);
            }
            State next = new State(s.inFlight - 1, failures, until);
            // Forget a destination with nothing in flight and nothing to remember.
            return next.inFlight == 0 && next.failures == 0 ? null : next;
        });
    }

    /**
     * The attempts in flight to a destination.
     *
     * @param destination the destination
     * @return how many
     */
    int inFlight(String destination) {
        State s = states.get(destination);
        return s == null ? 0 : s.inFlight;
    }

    private record State(
            int inFlight, int failures, @Nullable Instant backoffUntil) {}
}
