package dev.egress.app.ops;

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
 */
@Validated
@ConfigurationProperties("egress.ops")
public record OpsProperties(@DefaultValue("10s") @NotNull Duration changeTimeout) {}
