package dev.egress.bench.registry;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Measures how late a thread wakes from a 1 ms park: the CPU contention every delivery also pays.
 * Its own class because it is an instrument of {@link RegistryPropagationBench} independent of the registry.
 */
final class SchedulingProbe {
    private final List<Long> lateness = Collections.synchronizedList(new ArrayList<>());
    private volatile boolean running = true;
    private Thread thread;

    static SchedulingProbe start() {
        SchedulingProbe probe = new SchedulingProbe();
        probe.thread = new Thread(
                () -> {
                    while (probe.running) {
                        long before = System.nanoTime();
                        LockSupport.parkNanos(1_000_000);
                        probe.lateness.add(Math.max(0, System.nanoTime() - before - 1_000_000));
                    }
                },
                "scheduling-probe");
        probe.thread.setDaemon(true);
        probe.thread.start();
        return probe;
    }

    List<Long> stop() throws InterruptedException {
        running = false;
        thread.join();
        return new ArrayList<>(lateness);
    }
}
