package dev.egress.app.fleet;

import dev.egress.app.config.SecurityProperties;
import dev.egress.app.resilience.BorderBreakers;
import dev.egress.app.resilience.PassiveHealth;
import dev.egress.app.resilience.RouteTraffic;
import dev.egress.app.trust.AppTrust;
import dev.egress.discovery.registry.RoutingTable;
import dev.egress.discovery.web.auth.PresentedToken;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires the fleet and registers its one routing-table listener. The link settings come from
 * {@code egress.dispatch.*} (a {@link LinkSettings} bean of dispatch's wiring).
 */
@Configuration(proxyBeanMethods = false)
class FleetConfiguration {

    private static final Logger log = LoggerFactory.getLogger(FleetConfiguration.class);

    @Bean(destroyMethod = "close")
    BorderFleet borderFleet(
            LinkSettings settings,
            SecurityProperties security,
            AppTrust trust,
            MeterRegistry meters,
            BorderBreakers breakers,
            PassiveHealth health,
            RouteTraffic traffic,
            RoutingTable table) {
        if (security.internalToken().isEmpty() && security.internalTokenFile().isEmpty()) {
            log.warn("egress.security.internal-token is not set: Borders will refuse App's calls");
        }
        PresentedToken internalToken = security.presentedInternalToken();
        internalToken.register(meters);
        BorderFleet fleet =
                new BorderFleet(new LinkFactory(settings, internalToken, trust.borderTls()), breakers, health, traffic);
        // Subscribe first, then read the current snapshot: a change between the two reaches the fleet either way.
        table.addListener(fleet::follow);
        fleet.catchUp(table::current);
        return fleet;
    }
}
