package dev.egress.app.fleet;

import dev.egress.app.resilience.BorderBreakers;
import dev.egress.app.resilience.PassiveHealth;
import dev.egress.app.resilience.RouteTraffic;
import dev.egress.discovery.web.auth.PresentedToken;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Optional;

/** Fleets for tests of other packages: plaintext links (insecure-local), resilience from defaults. */
public final class TestFleets {

    private TestFleets() {}

    /**
     * A fleet whose links speak plaintext, presenting an internal token.
     *
     * @param settings the link settings
     * @param token    the internal token presented on every call
     * @return the fleet, following no snapshot yet
     */
    public static BorderFleet plaintext(LinkSettings settings, PresentedToken token) {
        MeterRegistry meters = new SimpleMeterRegistry();
        return new BorderFleet(
                new LinkFactory(settings, token, Optional.empty()),
                new BorderBreakers(CircuitBreakerRegistry.ofDefaults()),
                new PassiveHealth(3, Duration.ofSeconds(30), System::nanoTime, meters),
                new RouteTraffic(Duration.ofMinutes(1), System::nanoTime, meters));
    }
}
