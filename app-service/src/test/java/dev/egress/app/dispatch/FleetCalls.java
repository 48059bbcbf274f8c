package dev.egress.app.dispatch;

import dev.egress.app.attempts.AttemptResult;
import dev.egress.app.attempts.ForwardCall;
import dev.egress.app.attempts.TraceHeaders;
import dev.egress.app.fleet.BorderFleet;
import dev.egress.app.fleet.TestFleets;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.Route;
import dev.egress.discovery.registry.RoutingSnapshot;
import dev.egress.discovery.web.auth.PresentedToken;
import dev.egress.discovery.web.forward.ForwardDeadline;
import java.util.Map;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * Forward calls through a fleet of plaintext links, as the dispatcher makes them: the route's handle from the
 * fleet, then the call.
 */
final class FleetCalls implements AutoCloseable {

    private final BorderFleet fleet;
    private final ForwardCall forward;

    private FleetCalls(DispatchProperties properties, PresentedToken token) {
        this.fleet = TestFleets.plaintext(properties.linkSettings(), token);
        this.forward =
                ForwardCall.of(properties.attemptPolicy(), JsonMapper.builder().build(), TraceHeaders.NONE);
    }

    /**
     * Calls with {@code egress.dispatch.*} from a map and the internal token "token".
     *
     * @param properties the properties
     * @return the calls, following no snapshot yet
     */
    static FleetCalls of(Map<String, String> properties) {
        DispatchProperties dispatch = new Binder(new MapConfigurationPropertySource(properties))
                .bindOrCreate("egress.dispatch", DispatchProperties.class);
        return new FleetCalls(
                dispatch,
                PresentedToken.of(
                        "egress.security.internal-token", "token", "egress.security.internal-token-file", null));
    }

    void retain(RoutingSnapshot snapshot) {
        fleet.follow(snapshot);
    }

    Mono<AttemptResult> call(Route route, byte[] body, ForwardDeadline deadline) {
        return Mono.defer(() -> forward.call(fleet.handle(route), route, body, deadline));
    }

    boolean takesTraffic(BorderId border) {
        return fleet.takesTraffic(border);
    }

    @Override
    public void close() {
        fleet.close();
    }
}
