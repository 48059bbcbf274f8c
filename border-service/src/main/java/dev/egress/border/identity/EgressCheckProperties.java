package dev.egress.border.identity;

import jakarta.validation.constraints.AssertTrue;
import java.net.URI;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The egress identity check ({@code egress.border.egress-check.*}); off unless {@code url} is set.
 *
 * @param url      an echo service that answers the caller's address as plain text (as
 *                 {@code https://checkip.amazonaws.com} does); fetched from every bind address. Operator
 *                 configuration, trusted as such: it is not vetted by the SSRF guard
 * @param interval how often each IP is checked again after the first check at start
 * @param timeout  how long one check may take (connect, TLS and answer)
 */
@Validated
@ConfigurationProperties("egress.border.egress-check")
public record EgressCheckProperties(
        @Nullable URI url,
        @DefaultValue("60s") Duration interval,
        @DefaultValue("5s") Duration timeout) {

    /**
     * Whether the check runs.
     *
     * @return true when a URL is set
     */
    public boolean enabled() {
        return url != null;
    }

    @AssertTrue(message = "egress.border.egress-check.url must be an absolute http or https URL with a host")
    boolean isUrlUsable() {
        return url == null
                || (url.getHost() != null && ("http".equals(url.getScheme()) || "https".equals(url.getScheme())));
    }

    @AssertTrue(message = "egress.border.egress-check.interval and .timeout must be positive, timeout < interval")
    boolean isTimingUsable() {
        return !interval.isNegative()
                && !interval.isZero()
                && !timeout.isNegative()
                && !timeout.isZero()
                && timeout.compareTo(interval) < 0;
    }
}
