package dev.egress.helm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The chart's README.md is generated from the {@code ## @param} comments of values.yaml and committed: it
 * must equal what {@link ChartReadme} generates now, so it cannot drift from the values. With
 * {@code -Dchart.readme.write=true} the test writes the generated README instead of comparing.
 */
class ChartReadmeTest {

    private static final Path README = ChartRendering.CHART.resolve("README.md");

    @Test
    void theCommittedChartReadmeIsTheOneGeneratedFromValuesYaml() throws IOException {
        String generated = ChartReadme.generate(
                ChartRendering.read(ChartRendering.CHART.resolve("Chart.yaml")),
                ChartRendering.read(ChartRendering.CHART.resolve("values.yaml")));
        if (Boolean.getBoolean("chart.readme.write")) {
            Files.writeString(README, generated);
        }

        assertThat(Files.exists(README))
                .as("%s (generate it with -Dchart.readme.write=true)", README)
                .isTrue();
        assertThat(Files.readString(README))
                .as("helm/egress-platform/README.md is stale: regenerate it with "
                        + "./mvnw -B -ntp -pl helm -am test -Dtest=ChartReadmeTest -Dchart.readme.write=true")
                .isEqualTo(generated);
    }

    @Test
    void everyParamBecomesARowWithItsDefault() {
        String readme =
                ChartReadme.generate("name: demo\ndescription: A demo.\nversion: 1.0.0\nappVersion: \"1.0.0\"\n", """
                ## @section First
                ## @param a.b Says a | b for <id> but not `<id>`
                ## @param a.list A list
                a:
                  b: "x"
                  list: [1, 2]
                ## @section Second
                ## @param c.d A map
                c:
                  d: {e: true}
                """);

        assertThat(readme)
                .contains(
                        "## First\n\n| Name | Description | Default |\n|---|---|---|\n"
                                + "| `a.b` | Says a \\| b for &lt;id&gt; but not `<id>` | `\"x\"` |\n| `a.list` | A list | `[1, 2]` |\n")
                .contains("## Second\n\n| Name | Description | Default |\n|---|---|---|\n"
                        + "| `c.d` | A map | `{\"e\": true}` |\n");
    }
}
