package dev.egress.border.registration;

import dev.egress.discovery.registry.IpStatus;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * {@code border.ips{status}}: how many of this Border's IPs its announcement carries in each status. A Border
 * whose every IP is DISABLED (by an operator, the identity check, or a stored decision) is registered and
 * ready yet carries no traffic; the chart's {@code EgressBorderAllIpsDisabled} alert reads this gauge.
 */
final class IpStatusGauges {

    private IpStatusGauges() {}

    /**
     * Registers one gauge per status, read from the registrar's local announcement at each scrape.
     *
     * @param registrar the registrar holding the announcement
     * @param meters    the registry
     */
    static void bind(BorderRegistrar registrar, MeterRegistry meters) {
        for (IpStatus status : IpStatus.values()) {
            Gauge.builder("border.ips", registrar, r -> count(r, status))
                    .tag("status", status.name())
                    .description("This Border's IPs by announced status")
                    .register(meters);
        }
    }

    private static long count(BorderRegistrar registrar, IpStatus status) {
        return registrar.current().ips().stream()
                .filter(ip -> ip.status() == status)
                .count();
    }
}
