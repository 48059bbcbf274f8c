package dev.egress.app.ops;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The operator API of App ({@code egress.ops.*}).
 *
 * @param changeTimeout how long {@code PUT /ops/v1/ips/{ip}} waits, Border calls included, for App's own
 *                      snapshot to show the change before it answers 504 with the current state
 * @param port          a port of its own for the operator page and API ({@code /ops/**}), which then answer
 *                      there only, so that a network rule can keep them from the API's callers; unset: they
 *                      share the API port ({@code server.port})
 */
@Validated
@ConfigurationProperties("egress.ops")
public record OpsProperties(
        @DefaultValue("10s") @NotNull Duration changeTimeout,
        @Min(1) @Max(65535) Integer port) {}
