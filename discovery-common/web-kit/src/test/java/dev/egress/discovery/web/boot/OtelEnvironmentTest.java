package dev.egress.discovery.web.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

class OtelEnvironmentTest {

    @Test
    void withoutOtelVariablesNothingIsSetSoNothingIsExported() {
        assertThat(OtelEnvironment.map(Map.<String, String>of()::get)).isEmpty();
        assertThat(OtelEnvironment.map(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", " ")::get))
                .isEmpty();
    }

    @Test
    void aBaseEndpointGetsTheTracesPathAndATracesEndpointIsTakenAsIs() {
        assertThat(OtelEnvironment.map(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318/")::get))
                .containsExactly(Map.entry(OtelEnvironment.ENDPOINT, "http://collector:4318/v1/traces"));
        assertThat(OtelEnvironment.map(Map.of(
                        "OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318",
                        "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "https://traces.example:443/otlp")::get))
                .containsEntry(OtelEnvironment.ENDPOINT, "https://traces.example:443/otlp");
    }

    @Test
    void headersSamplingAndTheKillSwitchMapToSpringsProperties() {
        assertThat(OtelEnvironment.map(Map.of(
                        "OTEL_EXPORTER_OTLP_HEADERS", "api-key=s3cr3t, x-tenant = ops",
                        "OTEL_TRACES_SAMPLER_ARG", "0.25",
                        "OTEL_SDK_DISABLED", "true")::get))
                .containsEntry("management.opentelemetry.tracing.export.otlp.headers.api-key", "s3cr3t")
                .containsEntry("management.opentelemetry.tracing.export.otlp.headers.x-tenant", "ops")
                .containsEntry("management.tracing.sampling.probability", "0.25")
                .containsEntry("management.tracing.enabled", "false");
    }

    @Test
    void aSpringPropertyWinsOverTheVariable() {
        StandardEnvironment environment = new StandardEnvironment();
        environment
                .getPropertySources()
                .addFirst(new MapPropertySource(
                        "test",
                        Map.of(
                                "OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318",
                                "management.tracing.sampling.probability", "1.0",
                                "OTEL_TRACES_SAMPLER_ARG", "0.5")));

        new OtelEnvironment().postProcessEnvironment(environment, new SpringApplication());

        assertThat(environment.getProperty(OtelEnvironment.ENDPOINT)).isEqualTo("http://collector:4318/v1/traces");
        assertThat(environment.getProperty("management.tracing.sampling.probability"))
                .isEqualTo("1.0");
    }
}
