package dev.egress.bench.registry;

import java.util.List;

/**
 * The one-line latency summary ({@code n=.. p50=..ms p90=..ms p99=..ms max=..ms}) every section of
 * {@link RegistryPropagationBench} prints: its own class so the report format lives in one place,
 * apart from the steps that collect the samples.
 */
final class LatencySummary {

    private LatencySummary() {}

    static String of(List<Long> nanos) {
        if (nanos.isEmpty()) {
            return "no samples";
        }
        long[] sorted = nanos.stream().mapToLong(Long::longValue).sorted().toArray();
        return "n=%d p50=%.1fms p90=%.1fms p99=%.1fms max=%.1fms"
                .formatted(
                        sorted.length,
                        ms(percentile(sorted, 0.50)),
                        ms(percentile(sorted, 0.90)),
                        ms(percentile(sorted, 0.99)),
                        ms(sorted[sorted.length - 1]));
    }

    private static long percentile(long[] sorted, double p) {
        int index = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }
}
