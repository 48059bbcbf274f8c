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
 * @param stateFile   where this Border remembers the number of the last decision record it stored (a file on a
 *                    volume that outlives the process); with it, a record missing from the registry or older
 *                    than that number starts every IP {@code DISABLED}. Empty: not remembered
 * @param acceptUnsignedRecord for the one roll that upgrades Borders from a version whose records were unsigned:
 *                    on the trust chain, an unsigned record is read (and at once stored again, signed) instead of
 *                    failing closed. Turn it off after that roll: while on, a registry writer can plant one
 */
@Validated
@ConfigurationProperties("egress.decisions")
public record DecisionsProperties(
        @DefaultValue("30s") @NotNull Duration readTimeout,
        @DefaultValue("") String stateFile,
        @DefaultValue("false") boolean acceptUnsignedRecord) {

    /** Validates and trims. */
    public DecisionsProperties {
        stateFile = stateFile == null ? "" : stateFile.strip();
        if (readTimeout != null && (readTimeout.isNegative() || readTimeout.isZero())) {
            throw new IllegalArgumentException(
                    "egress.decisions.read-timeout: %s (expected: > 0)".formatted(readTimeout));
        }
    }
}
