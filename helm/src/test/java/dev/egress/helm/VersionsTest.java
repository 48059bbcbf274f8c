package dev.egress.helm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One version for the whole platform (docs/kubernetes.md, "Versions"): the Maven reactor builds
 * {@code X.Y.Z-SNAPSHOT} while X.Y.Z is being made; the chart's version and appVersion, the image tags
 * the docs and examples build and pull, and the newest version heading of CHANGELOG.md are X.Y.Z.
 */
class VersionsTest {

    private static final Path REPOSITORY = ChartRendering.CHART.getParent().getParent();
    private static final Pattern PROJECT_VERSION = Pattern.compile(
            "<artifactId>egress-platform</artifactId>\\s*<version>(\\d+\\.\\d+\\.\\d+)-SNAPSHOT</version>");
    private static final Pattern CHANGELOG_VERSION = Pattern.compile("^## (\\d+\\.\\d+\\.\\d+)\\b", Pattern.MULTILINE);
    private static final Pattern IMAGE_TAG = Pattern.compile("(?:app|border)-service:([\\w.-]+)");

    private static String release() {
        Matcher matcher = PROJECT_VERSION.matcher(ChartRendering.read(REPOSITORY.resolve("pom.xml")));
        assertThat(matcher.find()).as("the root pom's version X.Y.Z-SNAPSHOT").isTrue();
        return matcher.group(1);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"Chart.yaml version", "Chart.yaml appVersion", "CHANGELOG.md"})
    void theChartAndTheChangelogCarryTheReleaseTheReactorBuilds(String where) {
        Map<String, Object> chart =
                ChartRendering.yaml().load(ChartRendering.read(ChartRendering.CHART.resolve("Chart.yaml")));
        String version = switch (where) {
            case "Chart.yaml version" -> String.valueOf(chart.get("version"));
            case "Chart.yaml appVersion" -> String.valueOf(chart.get("appVersion"));
            default -> {
                Matcher heading = CHANGELOG_VERSION.matcher(ChartRendering.read(REPOSITORY.resolve("CHANGELOG.md")));
                assertThat(heading.find())
                        .as("a version heading in CHANGELOG.md")
                        .isTrue();
                yield heading.group(1);
            }
        };

        assertThat(version).as(where).isEqualTo(release());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "Dockerfile",
                "docker-compose.yml",
                "docs/kubernetes.md",
                "docs/deployment.md",
                "helm/egress-platform/examples/values-aws.yaml",
                "helm/egress-platform/examples/values-hostnetwork.yaml",
                "helm/egress-platform/examples/values-multus.yaml"
            })
    void everyImageTagTheDocsAndExamplesNameIsTheRelease(String file) {
        String text = ChartRendering.read(REPOSITORY.resolve(file));
        Matcher tag = IMAGE_TAG.matcher(text);
        List<String> tags = tag.results().map(r -> r.group(1)).toList();
        if (file.endsWith(".yaml") && file.contains("examples")) {
            Map<String, Map<String, Map<String, Object>>> values =
                    ChartRendering.yaml().load(text);
            tags = List.of(
                    String.valueOf(values.get("app").get("image").get("tag")),
                    String.valueOf(values.get("border").get("image").get("tag")));
        }

        assertThat(tags).as("image tags in %s", file).isNotEmpty();
        assertThat(tags).as("image tags in %s", file).allMatch(release()::equals);
    }
}
