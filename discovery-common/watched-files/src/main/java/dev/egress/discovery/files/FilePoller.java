package dev.egress.discovery.files;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread that polls every background-polled {@link WatchedFile} of the process, however many there
 * are (a thread per file cost a thread per certificate, bundle and tenants file). A look is a few stat calls,
 * so one daemon thread keeps up; a task that throws is logged and keeps its schedule.
 */
final class FilePoller {

    private static final Logger log = LoggerFactory.getLogger(FilePoller.class);

    private static final ScheduledExecutorService POLLER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "egress-file-watch");
        thread.setDaemon(true);
        return thread;
    });

    private FilePoller() {}

    /**
     * Runs {@code look} every {@code interval} (at least 50 ms), the first time after one interval.
     *
     * @param what     names the task in logs
     * @param interval how often
     * @param look     the task
     * @return its schedule, to cancel it
     */
    static ScheduledFuture<?> every(String what, Duration interval, Runnable look) {
        long millis = Math.max(50, interval.toMillis());
        return POLLER.scheduleWithFixedDelay(
                () -> {
                    try {
                        look.run();
                    } catch (RuntimeException e) {
                        // A scheduled task that throws is cancelled for good: catch everything and keep polling.
                        log.warn("Checking {} failed; keeping the value in use", what, e);
                    }
                },
                millis,
                millis,
                TimeUnit.MILLISECONDS);
    }
}
