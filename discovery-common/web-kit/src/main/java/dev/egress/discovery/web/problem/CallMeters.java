package dev.egress.discovery.web.problem;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The one metrics shape of the calls App and the Border carry (forwards and tunnels): every meter carries a
 * {@code kind} tag ({@link CallKind#tag()}), and a refusal or a failure is counted by its {@link ProblemType}, whose
 * slug is the {@code outcome} tag, so a dashboard reads the same words as the problem answers. Meter names stay the
 * caller's (they are cited by alerts and dashboards); this class only builds, tags and caches them, once per name
 * and tag values, so the hot path looks a meter up instead of building it.
 *
 * <p>Tags are given as key, value pairs. Their values must come from a bounded set (hosted IPs, slugs, a tenant
 * class): a caller never passes a value a client chose.
 */
public final class CallMeters {

    /** The tag value of an IP that is not one of the service's own (a refusal before the IP was known to be hosted). */
    public static final String OTHER_IP = "other";

    /** The tag that carries a problem's slug, or a success such as {@code 2xx} or {@code opened}. */
    public static final String OUTCOME = "outcome";

    private final MeterRegistry meters;
    private final CallKind kind;
    private final Map<String, Meter> cache = new ConcurrentHashMap<>();

    /**
     * Creates the meters of one kind of call.
     *
     * @param meters where meters are registered
     * @param kind   the {@code kind} tag of every meter
     */
    public CallMeters(MeterRegistry meters, CallKind kind) {
        this.meters = meters;
        this.kind = kind;
    }

    /**
     * The kind these meters count.
     *
     * @return the kind
     */
    public CallKind kind() {
        return kind;
    }

    /**
     * Counts one call that ended in a problem.
     *
     * @param name        the counter's name
     * @param description what it counts
     * @param problem     the problem; its slug is the {@code outcome} tag
     * @param tags        further key, value pairs
     */
    public void failed(String name, String description, ProblemType problem, String... tags) {
        count(name, description, withOutcome(problem.slug(), tags));
    }

    /**
     * Counts one event.
     *
     * @param name        the counter's name
     * @param description what it counts
     * @param tags        key, value pairs
     */
    public void count(String name, String description, String... tags) {
        Meter counter = cache.computeIfAbsent(
                key(name, tags),
                k -> Counter.builder(name)
                        .tags(tags(tags))
                        .description(description)
                        .register(meters));
        ((Counter) counter).increment();
    }

    /**
     * Records a duration.
     *
     * @param name        the timer's name
     * @param description what it times
     * @param histogram   whether to publish a percentile histogram (a latency dashboards draw quantiles of)
     * @param duration    the duration
     * @param tags        key, value pairs
     */
    public void time(String name, String description, boolean histogram, Duration duration, String... tags) {
        Meter timer = cache.computeIfAbsent(key(name, tags), k -> {
            Timer.Builder builder = Timer.builder(name).tags(tags(tags)).description(description);
            if (histogram) {
                builder.publishPercentileHistogram();
            }
            return builder.register(meters);
        });
        ((Timer) timer).record(duration);
    }

    /**
     * Records an amount of bytes.
     *
     * @param name        the summary's name
     * @param description what it measures
     * @param bytes       the amount
     * @param tags        key, value pairs
     */
    public void bytes(String name, String description, long bytes, String... tags) {
        Meter summary = cache.computeIfAbsent(
                key(name, tags),
                k -> DistributionSummary.builder(name)
                        .tags(tags(tags))
                        .baseUnit("bytes")
                        .description(description)
                        .register(meters));
        ((DistributionSummary) summary).record(bytes);
    }

    /**
     * Registers a gauge that reads a live value.
     *
     * @param name        the gauge's name
     * @param description what it shows
     * @param value       reads the value
     * @param tags        key, value pairs
     */
    public void gauge(String name, String description, Supplier<Number> value, String... tags) {
        cache.computeIfAbsent(
                key(name, tags),
                k -> Gauge.builder(name, value)
                        .tags(tags(tags))
                        .description(description)
                        .register(meters));
    }

    private Tags tags(String[] pairs) {
        return Tags.of(pairs).and("kind", kind.tag());
    }

    private static String[] withOutcome(String outcome, String[] tags) {
        String[] all = new String[tags.length + 2];
        System.arraycopy(tags, 0, all, 0, tags.length);
        all[tags.length] = OUTCOME;
        all[tags.length + 1] = outcome;
        return all;
    }

    private static String key(String name, String[] tags) {
        return tags.length == 0 ? name : name + '|' + String.join("|", tags);
    }
}
