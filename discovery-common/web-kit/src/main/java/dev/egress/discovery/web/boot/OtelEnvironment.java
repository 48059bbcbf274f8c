package dev.egress.discovery.web.boot;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Reads the OpenTelemetry SDK's standard environment variables into Spring Boot's tracing properties, so a
 * collector is named the way every other OpenTelemetry-instrumented service names it:
 * {@code OTEL_EXPORTER_OTLP_TRACES_ENDPOINT} (as is) or {@code OTEL_EXPORTER_OTLP_ENDPOINT} (a base URL, to which
 * {@code /v1/traces} is appended, as the SDK does for OTLP/HTTP) become
 * {@code management.opentelemetry.tracing.export.otlp.endpoint}; {@code OTEL_EXPORTER_OTLP_HEADERS}
 * ({@code k=v,k=v}) its headers; {@code OTEL_TRACES_SAMPLER_ARG} {@code management.tracing.sampling.probability};
 * {@code OTEL_SDK_DISABLED=true} {@code management.tracing.enabled=false}. A Spring property set anywhere wins
 * (this source comes last). With none of them set nothing is exported: tracing is off by default.
 */
public final class OtelEnvironment implements EnvironmentPostProcessor, Ordered {

    static final String ENDPOINT = "management.opentelemetry.tracing.export.otlp.endpoint";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        Map<String, Object> mapped = map(environment::getProperty);
        if (!mapped.isEmpty()) {
            environment.getPropertySources().addLast(new MapPropertySource("otelEnvironment", mapped));
        }
    }

    /**
     * The Spring properties for the {@code OTEL_*} variables present.
     *
     * @param variables the environment's variables by name
     * @return property name to value; empty without any
     */
    static Map<String, Object> map(Function<String, String> variables) {
        Map<String, Object> mapped = new LinkedHashMap<>();
        String traces = blankToNull(variables.apply("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"));
        String base = blankToNull(variables.apply("OTEL_EXPORTER_OTLP_ENDPOINT"));
        if (traces != null) {
            mapped.put(ENDPOINT, traces);
        } else if (base != null) {
            mapped.put(ENDPOINT, (base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + "/v1/traces");
        }
        String headers = blankToNull(variables.apply("OTEL_EXPORTER_OTLP_HEADERS"));
        if (headers != null) {
            for (String pair : headers.split(",")) {
                int equals = pair.indexOf('=');
                if (equals > 0) {
                    mapped.put(
                            "management.opentelemetry.tracing.export.otlp.headers."
                                    + pair.substring(0, equals).strip(),
                            pair.substring(equals + 1).strip());
                }
            }
        }
        String ratio = blankToNull(variables.apply("OTEL_TRACES_SAMPLER_ARG"));
        if (ratio != null) {
            mapped.put("management.tracing.sampling.probability", ratio);
        }
        if ("true".equalsIgnoreCase(blankToNull(variables.apply("OTEL_SDK_DISABLED")))) {
            mapped.put("management.tracing.enabled", "false");
        }
        return mapped;
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }

    /** After the config data (application.yml, SPRING_* variables); being last, they win anyway. */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
