package dev.egress.discovery.registry.ydb;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One daemon thread that owns a registry state machine. Every transition runs here, so the state
 * needs no locks; every task is guarded, because an exception escaping a scheduled task silently
 * cancels it and a dead registry loop is the worst failure this adapter can have. Never block on it.
 */
final class RegistryLoop implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RegistryLoop.class);

    private final ScheduledExecutorService executor;
    private final String name;
    private volatile Thread thread;

    RegistryLoop(String name) {
        this.name = name;
        this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread created = new Thread(r, name);
            created.setDaemon(true);
            thread = created;
            return created;
        });
    }

    /**
     * The executor handed to the SDK: its completions run on this loop, and once the loop is closed they
     * run on the calling thread instead, so a session being stopped or opened during a close still
     * completes its futures (a dropped SDK task would leave them pending forever).
     *
     * @return the executor
     */
    Executor sdkExecutor() {
        return task -> {
            try {
                executor.execute(task);
            } catch (RejectedExecutionException closed) {
                task.run();
            }
        };
    }

    /** Runs a task on the loop (dropped once closed). */
    void execute(Runnable task) {
        try {
            executor.execute(guard(task));
        } catch (RejectedExecutionException closed) {
            log.debug("{} closed; dropped a task", name);
        }
    }

    /** Runs a task on the loop after a delay (dropped once closed). */
    @Nullable
    ScheduledFuture<?> schedule(Runnable task, Duration delay) {
        try {
            return executor.schedule(guard(task), delay.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closed) {
            log.debug("{} closed; dropped a scheduled task", name);
            return null;
        }
    }

    /** Runs a task on the loop every {@code period}; a failing run does not cancel later ones. */
    void every(Duration period, Runnable task) {
        try {
            executor.scheduleWithFixedDelay(guard(task), period.toNanos(), period.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closed) {
            log.debug("{} closed; periodic task not started", name);
        }
    }

    /**
     * Continues on the loop when a future completes, whatever the outcome (dropped once the loop is closed).
     *
     * @param future  the future
     * @param handler receives the value or the failure, on the loop
     * @param <T>     the value type
     */
    <T> void when(CompletableFuture<T> future, BiConsumer<? super T, ? super Throwable> handler) {
        future.whenCompleteAsync(
                (value, failure) -> {
                    try {
                        handler.accept(value, failure);
                    } catch (Throwable t) {
                        log.error("{}: callback failed; the loop keeps running", name, t);
                    }
                },
                this::execute);
    }

    /**
     * Whether the caller is on the loop thread.
     *
     * @return true on the loop
     */
    boolean inLoop() {
        return Thread.currentThread() == thread;
    }

    private Runnable guard(Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (Throwable t) {
                log.error("{}: task failed; the loop keeps running", name, t);
            }
        };
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
