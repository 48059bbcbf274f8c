package dev.egress.border.ssrf;

import dev.egress.border.BorderException;
import dev.egress.discovery.web.problem.ProblemType;
import java.time.Duration;

/**
 * 502 {@code dns-failed}: the target's name could not be resolved in time (no answer, too many
 * deliveries already waiting on that name, or a resolver failure). Nothing was sent to the target.
 * Distinct from a name that does not exist, which is a 403 {@code UNRESOLVABLE} denial.
 */
public final class DnsFailedException extends BorderException {

    private DnsFailedException(String detail, Throwable cause) {
        super(ProblemType.DNS_FAILED, detail, false, cause);
    }

    static DnsFailedException timeout(String name, Duration timeout) {
        return new DnsFailedException("no DNS answer for '%s' within %s".formatted(name, timeout), null);
    }

    static DnsFailedException noAnswer(String name, Throwable cause) {
        return new DnsFailedException("the DNS servers did not answer for '%s'".formatted(name), cause);
    }

    static DnsFailedException busy(String name, int limit) {
        return new DnsFailedException(
                "%d deliveries already wait on the DNS answer for '%s'".formatted(limit, name), null);
    }

    static DnsFailedException failed(String name, Throwable cause) {
        return new DnsFailedException("DNS resolution of '%s' failed: %s".formatted(name, cause), cause);
    }
}
