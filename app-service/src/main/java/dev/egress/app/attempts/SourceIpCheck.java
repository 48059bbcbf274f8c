package dev.egress.app.attempts;

import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.Route;
import dev.egress.discovery.web.forward.ForwardResponse;
import dev.egress.discovery.web.problem.ProblemType;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds a Border to the IP it was asked to send from. The dedicated-IP promise is checked where App can
 * check it: a Border reporting any other {@code sourceIp} (or none) has sent from an address the tenant
 * may not have allowlisted, or misreports; either way the delivery is not reported as a success. It
 * becomes a Border fault (502 {@code border-fault}; the target was contacted, so it is never retried),
 * counted in {@code egress.border.faults{border,reason=source-ip-mismatch}} and logged at WARN.
 *
 * <p>Behind a NAT the Border binds a private address and the route's IP is the public address the NAT
 * maps it to; the Border reports the address it bound. So the one other address accepted is the bind
 * address the Border announced for the route's IP ({@link Route#sentFrom}) — not any address the Border
 * hosts, and not another IP's bind address — and the result then names the public address, the one the
 * target saw.
 */
final class SourceIpCheck {

    private static final Logger log = LoggerFactory.getLogger(SourceIpCheck.class);

    private SourceIpCheck() {}

    /**
     * The result as App may report it.
     *
     * @param route   the route the attempt was sent on
     * @param result  what the Border answered
     * @param events  where the fault is reported
     * @return the same result, or a {@link AttemptResult.Kind#SOURCE_IP_MISMATCH} failure
     */
    static AttemptResult verify(Route route, AttemptResult result, AttemptEvents events) {
        if (result.kind() != AttemptResult.Kind.DELIVERED) {
            return result;
        }
        EgressIp reported = parse(result.response().sourceIp());
        if (route.ip().equals(reported)) {
            return result;
        }
        if (route.sentFrom(reported)) {
            // The route's own bind address: the target saw the public address, and only that one is reported
            // on (customers never allowlist the private one).
            ForwardResponse r = result.response();
            return AttemptResult.delivered(
                    new ForwardResponse(
                            r.deliveryId(),
                            route.ip().value(),
                            r.borderId(),
                            r.status(),
                            r.headers(),
                            r.body(),
                            r.bodyTruncated(),
                            r.latencyMs()),
                    result.latencyMs());
        }
        events.borderFault(route.borderId().value(), "source-ip-mismatch");
        // The reported value comes from the Border: only a parsed IP literal goes into the log.
        String shown = reported == null ? "no valid IP" : reported.value();
        log.warn(
                "Border {} reported source IP {} for a delivery routed to {}; answered as {} (target contacted)",
                route.borderId().value(),
                shown,
                route.ip().value(),
                ProblemType.BORDER_FAULT.slug());
        return AttemptResult.failed(
                AttemptResult.Kind.SOURCE_IP_MISMATCH,
                true,
                "Border %s reported source IP %s, expected %s"
                        .formatted(route.borderId().value(), shown, route.ip().value()),
                result.latencyMs());
    }

    private static @Nullable EgressIp parse(String text) {
        try {
            return text == null ? null : EgressIp.of(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
