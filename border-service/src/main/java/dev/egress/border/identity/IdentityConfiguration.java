package dev.egress.border.identity;

import dev.egress.border.HostedIps;
import dev.egress.border.registration.BorderRegistrar;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires the egress identity check when {@code egress.border.egress-check.url} is set: the registrar
 * withholds every IP before the first announcement, follows each change of a verdict, and the check starts
 * with the context (so its first answers usually arrive before the Border has registered).
 */
@Configuration(proxyBeanMethods = false)
class IdentityConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnProperty(prefix = "egress.border.egress-check", name = "url")
    EgressIdentityCheck egressIdentityCheck(
            EgressCheckProperties properties, HostedIps hosted, BorderRegistrar registrar, MeterRegistry meters) {
        EgressIdentityCheck check =
                new EgressIdentityCheck(properties, hosted.bindByPublic(), Clock.systemUTC(), meters);
        // Before anything is announced: an IP nobody has seen leave as itself is not offered to App.
        registrar.withhold(check.withheld());
        check.onChange(identities -> registrar.withhold(check.withheld()));
        check.start();
        return check;
    }
}
