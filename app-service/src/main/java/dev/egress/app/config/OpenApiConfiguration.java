package dev.egress.app.config;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.info.License;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import java.util.Map;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The OpenAPI document's frame: title, version, the bearer scheme every {@code /v1} call needs, and an
 * RFC 9457 problem schema for every error response, so generated clients read errors as problems rather
 * than as the success type springdoc would infer from the handler's return type.
 */
@Configuration(proxyBeanMethods = false)
class OpenApiConfiguration {

    static final String BEARER = "bearer";
    static final String PROBLEM = "Problem";
    private static final String PROBLEM_JSON = "application/problem+json";

    @Bean
    OpenAPI egressOpenApi(@Value("${info.app.version:dev}") String version) {
        return new OpenAPI()
                .info(new Info()
                        .title("Egress platform dispatch API")
                        .version(version)
                        .description("Send webhooks from a tenant's dedicated, published source IPs. Errors are "
                                + "application/problem+json with a stable type urn:egress:problem:<slug>.")
                        .license(new License().name("Apache-2.0")))
                .components(new Components()
                        .addSecuritySchemes(
                                BEARER,
                                new SecurityScheme()
                                        .type(SecurityScheme.Type.HTTP)
                                        .scheme("bearer")
                                        .description(
                                                "An API token from egress.security.api-tokens(-file) (any tenant) or "
                                                        + "egress.security.tenant-api-tokens.<tenantId> / tenant-api-token-files.<tenantId> "
                                                        + "(that tenant only). Idempotency-Key is scoped per token and tenant."))
                        .addSchemas(PROBLEM, problemSchema()))
                .addSecurityItem(new SecurityRequirement().addList(BEARER));
    }

    /** Every 4xx/5xx answer of every operation is a problem, whatever the handler returns on success. */
    @Bean
    OpenApiCustomizer problemResponses() {
        return openApi -> openApi.getPaths()
                .values()
                .forEach(path -> path.readOperations().forEach(operation -> {
                    if (operation.getResponses() == null) {
                        return;
                    }
                    operation.getResponses().forEach((code, response) -> {
                        if (code.startsWith("4") || code.startsWith("5")) {
                            response.setContent(new Content()
                                    .addMediaType(
                                            PROBLEM_JSON,
                                            new MediaType()
                                                    .schema(new Schema<>().$ref("#/components/schemas/" + PROBLEM))
                                                    .example(example(code, response))));
                        }
                    });
                }));
    }

    private static Map<String, Object> example(String code, ApiResponse response) {
        String description = response.getDescription() == null ? "" : response.getDescription();
        String slug = description.isBlank() ? "invalid-request" : description.split("[ ,(:]")[0];
        return Map.of("type", "urn:egress:problem:" + slug, "status", Integer.parseInt(code), "detail", description);
    }

    @SuppressWarnings("rawtypes")
    private static Schema problemSchema() {
        return new ObjectSchema()
                .description("RFC 9457 problem details; extra members depend on the type")
                .addProperty(
                        "type",
                        new StringSchema()
                                .example("urn:egress:problem:no-egress-available")
                                .description("stable identifier: urn:egress:problem:<slug>"))
                .addProperty("title", new StringSchema().example("Service Unavailable"))
                .addProperty("status", new IntegerSchema().example(503))
                .addProperty(
                        "detail",
                        new StringSchema().example("no IP allowed for tenant 'acme' is ACTIVE on a live Border"))
                .addProperty("cause", new StringSchema().description("technical cause, when it helps a developer"))
                .addProperty("reason", new StringSchema().description("machine-readable reason, e.g. no-live-ip"))
                .addProperty("field", new StringSchema().description("the request field a 400 is about"))
                .addProperty(
                        "targetContacted",
                        new Schema<Boolean>()
                                .type("boolean")
                                .description("whether the target may have received the request (502/504)"));
    }
}
