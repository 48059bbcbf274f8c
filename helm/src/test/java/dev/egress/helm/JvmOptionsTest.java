package dev.egress.helm;

import static dev.egress.helm.Manifests.containers;
import static dev.egress.helm.Manifests.env;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The JVM options decide most of a pod's memory (heap share, GC, direct memory, code cache), so the chart
 * hands them to the JVM itself ({@code JAVA_TOOL_OPTIONS}) and keeps them inside the container's limit:
 * a JVM whose heap and native caps outgrow the limit is killed by the kernel instead of collecting garbage.
 */
class JvmOptionsTest {

    /** What the caps leave out (symbols, thread stacks, GC and JIT structures): about 45 MB measured with NMT. */
    private static final long UNCAPPED_NATIVE_MB = 64;

    private static final Pattern PERCENT = Pattern.compile("-XX:MaxRAMPercentage=(\\d+)");
    private static final Pattern SIZE =
            Pattern.compile("-XX:(MaxDirectMemorySize|ReservedCodeCacheSize|MaxMetaspaceSize)=(\\d+)m");

    private final Manifests rendered =
            ChartRendering.render().example("values-hostnetwork.yaml").manifests();

    @Test
    void bothServicesGetTheDocumentedDefaultsAsJavaToolOptions() {
        for (Map<String, Object> workload : List.of(rendered.app(), rendered.border("border-a"))) {
            assertThat(env(workload).get("JAVA_TOOL_OPTIONS"))
                    .contains(
                            "-XX:+UseSerialGC",
                            "-Xms32m",
                            "-XX:MaxRAMPercentage=45",
                            "-XX:MaxDirectMemorySize=128m",
                            "-XX:ReservedCodeCacheSize=96m",
                            "-XX:MaxMetaspaceSize=128m",
                            "-XX:+ExitOnOutOfMemoryError")
                    .doesNotContain("TieredStopAtLevel");
        }
    }

    @Test
    void theDefaultHeapShareAndNativeCapsFitInsideTheDefaultMemoryLimit() {
        for (Map<String, Object> workload : List.of(rendered.app(), rendered.border("border-a"))) {
            String options = env(workload).get("JAVA_TOOL_OPTIONS");
            String limit = Manifests.at(containers(workload).get(0), "resources", "limits", "memory");
            assertThat(limit).matches("[0-9]+(Mi|Gi)");
            long limitMb = Long.parseLong(limit.substring(0, limit.length() - 2)) * (limit.endsWith("Gi") ? 1024 : 1);
            Matcher percent = PERCENT.matcher(options);
            assertThat(percent.find()).as("MaxRAMPercentage in %s", options).isTrue();
            long capsMb = limitMb * Long.parseLong(percent.group(1)) / 100 + UNCAPPED_NATIVE_MB;
            Matcher size = SIZE.matcher(options);
            int caps = 0;
            while (size.find()) {
                capsMb += Long.parseLong(size.group(2));
                caps++;
            }
            assertThat(caps)
                    .as("direct memory, code cache and metaspace capped in %s", options)
                    .isEqualTo(3);
            assertThat(capsMb)
                    .as(
                            "heap + direct + code cache + metaspace + uncapped native of %s against the %s limit",
                            options, limit)
                    .isLessThan(limitMb);
            assertThat(limitMb - capsMb)
                    .as("headroom under the %s limit (was 7 MiB in 768Mi): at least 10 %%", limit)
                    .isGreaterThanOrEqualTo(limitMb / 10);
        }
    }

    @Test
    void theJvmSeesTheCpusOfItsLimitOrElseItsRequestNotTheNodes() {
        assertThat(env(rendered.border("border-a")).get("JAVA_TOOL_OPTIONS"))
                .as("Border: limit 1")
                .endsWith(" -XX:ActiveProcessorCount=1");
        Manifests sized = ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .set("app.resources.requests.cpu", "1500m")
                .set("border.resources.limits.cpu", "2.5")
                .set("border.resources.requests.cpu", "2.5")
                .manifests();
        assertThat(env(sized.app()).get("JAVA_TOOL_OPTIONS"))
                .as("App: no limit, request 1500m")
                .endsWith(" -XX:ActiveProcessorCount=2");
        assertThat(env(sized.border("border-a")).get("JAVA_TOOL_OPTIONS")).endsWith(" -XX:ActiveProcessorCount=3");

        Manifests explicit = ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .set("app.activeProcessorCount", 4)
                .set("border.activeProcessorCount", -1)
                .set("border.jvmOptions", "-XX:+UseSerialGC")
                .manifests();
        assertThat(env(explicit.app()).get("JAVA_TOOL_OPTIONS")).endsWith(" -XX:ActiveProcessorCount=4");
        assertThat(env(explicit.border("border-a"))).containsEntry("JAVA_TOOL_OPTIONS", "-XX:+UseSerialGC");
    }

    @Test
    void jvmOptionsSetPerServiceReachOnlyThatService() {
        Manifests custom = ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .set("app.jvmOptions", "-Xmx300m -XX:+UseParallelGC")
                .manifests();

        assertThat(env(custom.app()))
                .containsEntry("JAVA_TOOL_OPTIONS", "-Xmx300m -XX:+UseParallelGC -XX:ActiveProcessorCount=1");
        assertThat(env(custom.border("border-a")).get("JAVA_TOOL_OPTIONS")).contains("-XX:+UseSerialGC");
    }

    @Test
    void emptyJvmOptionsLeaveTheImageDefaults() {
        Manifests custom = ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .set("app.jvmOptions", "")
                .set("border.jvmOptions", "")
                .manifests();

        assertThat(env(custom.app())).doesNotContainKey("JAVA_TOOL_OPTIONS");
        assertThat(env(custom.border("border-b"))).doesNotContainKey("JAVA_TOOL_OPTIONS");
    }
}
