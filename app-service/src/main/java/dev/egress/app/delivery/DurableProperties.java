package dev.egress.app.delivery;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How this App works durable deliveries ({@code egress.delivery.*}).
 *
 * @param workerId                  this App's name on the leases it holds (default: host name and pid); unique
 *                                  per App
 * @param lease                     how long a claimed record is this App's: an App killed mid-attempt leaves it
 *                                  to the others after this long
 * @param attemptTimeout            the most one attempt may take; below the lease, so an attempt's result is
 *                                  written while its lease holds
 * @param pollInterval              how often the workers look for due records
 * @param maxInFlight               the most attempts this App's workers run at once
 * @param maxInFlightPerDestination the most at once to one destination (scheme, host and port), so one slow
 *                                  host cannot take every slot
 */
@Validated
@ConfigurationProperties("egress.delivery")
public record DurableProperties(
        @DefaultValue("") String workerId,
        @DefaultValue("2m") Duration lease,
        @DefaultValue("30s") Duration attemptTimeout,
        @DefaultValue("500ms") Duration pollInterval,
        @DefaultValue("256") int maxInFlight,
        @DefaultValue("16") int maxInFlightPerDestination) {

    /** Checks the rules; the message names the property. */
    public DurableProperties {
        if (workerId == null || workerId.isBlank()) {
            workerId = defaultWorkerId();
        }
        if (attemptTimeout.isNegative() || attemptTimeout.isZero() || attemptTimeout.compareTo(lease) >= 0) {
            throw new IllegalArgumentException(
                    "egress.delivery.attempt-timeout: %s (expected: > 0 and < egress.delivery.lease %s)"
                            .formatted(attemptTimeout, lease));
        }
        if (pollInterval.isNegative() || pollInterval.isZero()) {
            throw new IllegalArgumentException(
                    "egress.delivery.poll-interval: %s (expected: > 0)".formatted(pollInterval));
        }
        if (maxInFlight < 1 || maxInFlightPerDestination < 1) {
            throw new IllegalArgumentException(
                    "egress.delivery.max-in-flight: %s, max-in-flight-per-destination: %s (expected: > 0)"
                            .formatted(maxInFlight, maxInFlightPerDestination));
        }
    }

    private static String defaultWorkerId() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "app";
        }
        return host + "-" + ManagementFactory.getRuntimeMXBean().getPid();
    }
}
