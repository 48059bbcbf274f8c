package dev.egress.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@code logging.format: json} switches both services to Spring Boot's structured (ECS JSON) console logs. */
class LogFormatTest {

    @Test
    void jsonLogsReachAppAndEveryBorder() {
        Manifests manifests = ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .set("logging.format", "json")
                .manifests();

        assertThat(Manifests.env(manifests.app())).containsEntry("LOGGING_STRUCTURED_FORMAT_CONSOLE", "ecs");
        assertThat(Manifests.env(manifests.border("border-a")))
                .containsEntry("LOGGING_STRUCTURED_FORMAT_CONSOLE", "ecs");
    }

    @Test
    void textIsTheDefaultAndSetsNothing() {
        Manifests manifests =
                ChartRendering.render().example("values-hostnetwork.yaml").manifests();

        assertThat(Manifests.env(manifests.app())).doesNotContainKey("LOGGING_STRUCTURED_FORMAT_CONSOLE");
        assertThat(Manifests.env(manifests.border("border-a"))).doesNotContainKey("LOGGING_STRUCTURED_FORMAT_CONSOLE");
    }

    @Test
    void theSchemaRefusesAnUnknownFormat() {
        assertThatThrownBy(ChartRendering.render()
                        .example("values-hostnetwork.yaml")
                        .set("logging.format", "xml")::text)
                .hasMessageContaining("schema");
    }
}
