package dev.egress.border.registration;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the signed announcement inside its validity window: every half window it republishes the same
 * content as a new generation with a new {@code publishedAt}, so Apps never see it expire while this Border
 * lives, and a copy captured from the registry dies at most one window after it was published. The new
 * stamp is taken even while the registry is unreachable, so the first publish after an outage is fresh.
 */
final class AnnouncementRefresh implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(AnnouncementRefresh.class);

    private final ScheduledExecutorService timer;

    private AnnouncementRefresh(ScheduledExecutorService timer) {
        this.timer = timer;
    }

    /**
     * Republishes every {@code validity / 2}.
     *
     * @param validity  the signed window
     * @param registrar the registrar (looked up at each tick: it may be created after this)
     * @return the running refresh; close it to stop
     */
    static AnnouncementRefresh every(Duration validity, Supplier<BorderRegistrar> registrar) {
        long period = Math.max(1, validity.toMillis() / 2);
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "egress-announcement-refresh");
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleAtFixedRate(() -> refresh(registrar), period, period, TimeUnit.MILLISECONDS);
        log.info("Republishing the signed announcement every {} ms (validity {})", period, validity);
        return new AnnouncementRefresh(timer);
    }

    /** A refresh that does nothing: unsigned announcements carry no window. */
    static AnnouncementRefresh none() {
        return new AnnouncementRefresh(null);
    }

    private static void refresh(Supplier<BorderRegistrar> registrar) {
        try {
            BorderRegistrar current = registrar.get();
            if (current == null) {
                return;
            }
            current.republish().whenComplete((published, failure) -> {
                if (failure == null) {
                    log.debug("Republished generation {} before its window ends", published.generation());
                } else {
                    log.warn("Could not republish the announcement before its window ends: {}", failure.toString());
                }
            });
        } catch (RuntimeException e) {
            // A scheduled task that throws is never run again: keep refreshing whatever happened.
            log.warn("Announcement refresh failed; trying again at the next tick", e);
        }
    }

    /**
     * Whether this refresh runs.
     *
     * @return false for {@link #none()} or once closed
     */
    boolean running() {
        return timer != null && !timer.isShutdown();
    }

    @Override
    public void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
