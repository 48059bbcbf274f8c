package dev.egress.app.signing;

import java.nio.file.Path;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Where the tenants' signing secrets come from ({@code egress.signing.*}). The record holds the file's path,
 * never a secret, so it can be printed.
 *
 * @param secretsFile    the signing secrets file (YAML, tenant id → one or two {@code whsec_} secrets), or
 *                       null: then no tenant has a secret, and a tenant with {@code signing: true} is refused
 * @param reloadInterval how often the file is checked for a change (a rotation applies on the next webhook
 *                       after it is read)
 */
@Validated
@ConfigurationProperties("egress.signing")
public record SigningProperties(
        @Nullable Path secretsFile, @DefaultValue("1s") Duration reloadInterval) {}
