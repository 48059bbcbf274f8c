package dev.egress.border.decisions;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How the Border reads its stored operator decisions at startup ({@code egress.decisions.*}).
 *
 * @param readTimeout how long startup keeps retrying the read (with backoff) before it gives up and starts
 *                    every IP {@code DISABLED} (the read goes on in the background); long enough for a slow
 *                    first connection to the registry, short enough that a Border does not hang in startup
 *                    when the registry is gone
 */
@Validated
@ConfigurationProperties("egress.decisions")
public record DecisionsProperties(
        @DefaultValue("30s") @NotNull Duration readTimeout) {

    /** Validates. */
    public DecisionsProperties {
        if (readTimeout != null && (readTimeout.isNegative() || readTimeout.isZero())) {
            throw new IllegalArgumentException(
                    "egress.decisions.read-timeout: %s (expected: > 0)".formatted(readTimeout));
        }
    }
}
