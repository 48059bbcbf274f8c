package dev.egress.border.egress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.border.BorderException;
import dev.egress.border.InvalidRequestException;
import dev.egress.border.registration.BorderRegistrar;
import dev.egress.border.testing.BorderTestProperties;
import dev.egress.border.testing.LocalBorderTest;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.web.forward.ForwardDeadline;
import dev.egress.discovery.web.problem.CallKind;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The one gate for forwards and tunnels: its checks run in one order for both kinds (deadline, hosted, input,
 * draining, ACTIVE, SSRF, place), read the deadline on the injected clock, and count each refusal once, tagged with
 * its kind. A whole Border, whose gate is driven directly so that each check can be crossed with the next.
 */
@LocalBorderTest({
    "egress.border.id=border-g",
    "egress.border.ips=127.0.0.2,127.0.0.3",
    BorderTestProperties.LOCAL,
    "egress.limits.max-concurrency-per-ip=1",
    "egress.tunnel.max-per-ip=1"
})
class EgressGateTest {

    /** The gate's clock runs an hour ahead of the wall clock, so a deadline read on the wall clock looks early. */
    @TestConfiguration(proxyBeanMethods = false)
    static class AheadClock {
        @Bean
        Clock aheadClock() {
            return Clock.offset(Clock.systemUTC(), Duration.ofHours(1));
        }
    }

    private static final String ACTIVE = "127.0.0.2";
    private static final String DISABLED = "127.0.0.3";
    private static final String DENIED = "http://169.254.169.254/";
    private static final String ALLOWED = "http://93.184.215.14/";

    @Autowired
    EgressGate gate;

    @Autowired
    BorderRegistrar registrar;

    @Autowired
    MeterRegistry meters;

    @BeforeEach
    void disableOne() {
        registrar.setStatus(EgressIp.of(DISABLED), IpStatus.DISABLED).join();
    }

    @ParameterizedTest
    @EnumSource(CallKind.class)
    void readsTheDeadlineOnItsClockBeforeAnythingElse(CallKind kind) {
        // Half an hour ahead of the wall clock: in time for App, half an hour late on the gate's clock.
        ForwardDeadline deadline = new ForwardDeadline(
                System.currentTimeMillis() + Duration.ofMinutes(30).toMillis());

        assertThat(refusal(kind, "203.0.113.99", deadline, "not even a URL")).isEqualTo("deadline-exceeded");
    }

    @ParameterizedTest
    @EnumSource(CallKind.class)
    void checksInOneOrderForBothKinds(CallKind kind) {
        assertThat(refusal(kind, "203.0.113.99", null, null))
                .as("hosted before input")
                .isEqualTo("ip-not-hosted");
        assertThat(refusal(kind, DISABLED, null, null))
                .as("input before ACTIVE")
                .isEqualTo("invalid-request");
        assertThat(refusal(kind, DISABLED, null, DENIED))
                .as("ACTIVE before SSRF")
                .isEqualTo("ip-not-active");

        EgressGate.Admitted<String> first = gate.admit(ask(kind, ACTIVE, null, ALLOWED));
        try {
            assertThat(refusal(kind, ACTIVE, null, DENIED))
                    .as("SSRF before the place")
                    .isEqualTo("target-denied");
            assertThat(refusal(kind, ACTIVE, null, ALLOWED))
                    .as("the place last")
                    .isEqualTo("too-many-requests");
        } finally {
            first.permit().release();
        }
        gate.admit(ask(kind, ACTIVE, null, ALLOWED)).permit().release();
    }

    @Test
    void countsARefusalOnceUnderItsKind() {
        double before = count("border.tunnel.requests", "tunnel");

        refusal(CallKind.TUNNEL, "203.0.113.98", null, ALLOWED);

        assertThat(count("border.tunnel.requests", "tunnel")).isEqualTo(before + 1);
        assertThat(meters.find("border.egress.requests")
                        .tags("kind", "forward", "ip", "other", "outcome", "ip-not-hosted")
                        .counter())
                .as("nothing counted under the other kind")
                .satisfiesAnyOf(
                        c -> assertThat(c).isNull(), c -> assertThat(c.count()).isZero());
    }

    private double count(String name, String kind) {
        var counter = meters.find(name)
                .tags("kind", kind, "ip", "other", "outcome", "ip-not-hosted")
                .counter();
        return counter == null ? 0 : counter.count();
    }

    private String refusal(CallKind kind, String ip, ForwardDeadline deadline, String url) {
        try {
            gate.admit(ask(kind, ip, deadline, url)).permit().release();
        } catch (BorderException e) {
            assertThat(e.targetContacted()).isFalse();
            return e.slug();
        }
        throw new AssertionError("admitted");
    }

    private static EgressGate.Ask<String> ask(CallKind kind, String ip, ForwardDeadline deadline, String url) {
        return new EgressGate.Ask<>(kind, ip, deadline, Duration.ofSeconds(5), () -> {
            if (url == null) {
                throw new InvalidRequestException("no target");
            }
            return new EgressGate.Checked<>(url, url);
        });
    }
}
