package dev.egress.bench.tables;

import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/** Closed-loop load: N threads each run operations back to back; latency of every measured operation is kept. */
final class Load {

    /** One operation of writer {@code w}, its {@code i}-th; returns attempts (negative: failed). */
    interface Op {
        int run(int writer, long i);
    }

    record Result(
            long ops,
            double opsPerSecond,
            double p50Millis,
            double p99Millis,
            double maxMillis,
            double attemptsPerOp,
            long failures) {}

    private Load() {}

    static Result run(int writers, int warmupSeconds, int seconds, Op op) throws InterruptedException {
        AtomicBoolean measuring = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        long[][] latencies = new long[writers][];
        AtomicLong attempts = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        CountDownLatch done = new CountDownLatch(writers);
        for (int w = 0; w < writers; w++) {
            int writer = w;
            Thread t = new Thread(
                    () -> {
                        long[] mine = new long[1 << 16];
                        int n = 0;
                        for (long i = 0; !stop.get(); i++) {
                            long start = System.nanoTime();
                            int a = op.run(writer, i);
                            long took = System.nanoTime() - start;
                            if (measuring.get()) {
                                if (n == mine.length) {
                                    mine = Arrays.copyOf(mine, n * 2);
                                }
                                mine[n++] = took;
                                attempts.addAndGet(Math.abs(a));
                                if (a < 0) {
                                    failures.incrementAndGet();
                                }
                            }
                        }
                        latencies[writer] = Arrays.copyOf(mine, n);
                        done.countDown();
                    },
                    "load-" + w);
            t.start();
        }
        Thread.sleep(warmupSeconds * 1000L);
        measuring.set(true);
        long started = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        measuring.set(false);
        long elapsed = System.nanoTime() - started;
        stop.set(true);
        done.await();
        long[] all =
                Arrays.stream(latencies).flatMapToLong(Arrays::stream).sorted().toArray();
        if (all.length == 0) {
            return new Result(0, 0, 0, 0, 0, 0, failures.get());
        }
        return new Result(
                all.length,
                all.length / (elapsed / 1e9),
                all[all.length / 2] / 1e6,
                all[(int) Math.min(all.length - 1, Math.ceil(all.length * 0.99) - 1)] / 1e6,
                all[all.length - 1] / 1e6,
                (double) attempts.get() / all.length,
                failures.get());
    }
}
