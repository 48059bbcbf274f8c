package dev.egress.app.tenants;

import jakarta.validation.constraints.NotNull;
import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Where the tenant policy comes from.
 *
 * @param file           the tenants YAML file ({@code egress.tenants.file}); required: the App refuses to
 *                       start without a valid one
 * @param reloadInterval how often the file's modification time and content hash are checked
 */
@Validated
@ConfigurationProperties("egress.tenants")
public record TenantsProperties(
        @NotNull Path file, @DefaultValue("1s") Duration reloadInterval) {}
