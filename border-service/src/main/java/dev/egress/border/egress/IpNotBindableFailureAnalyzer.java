package dev.egress.border.egress;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Turns an unbindable dedicated IP into a short startup report instead of a stack trace. */
class IpNotBindableFailureAnalyzer extends AbstractFailureAnalyzer<IpNotBindableException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, IpNotBindableException cause) {
        return new FailureAnalysis(
                cause.getMessage(),
                "Assign %s to a local interface (e.g. `ip addr add %s dev eth0`) or remove it from egress.border.ips."
                        .formatted(cause.ip(), cause.ip()),
                cause);
    }
}
