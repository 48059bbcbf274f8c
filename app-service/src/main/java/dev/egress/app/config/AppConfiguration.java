package dev.egress.app.config;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Cross-cutting beans: the clock and API authentication. */
@Configuration(proxyBeanMethods = false)
class AppConfiguration {

    private static final Logger log = LoggerFactory.getLogger(AppConfiguration.class);

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    ApiTokenFilter apiTokenFilter(SecurityProperties security, MeterRegistry meters) {
        if (security.apiTokens().isEmpty()
                && security.apiTokensFile().isEmpty()
                && security.tenantApiTokens().isEmpty()
                && security.tenantApiTokenFiles().isEmpty()) {
            log.warn("egress.security.api-tokens is empty: every API call answers 401");
        }
        if (security.operatorToken().isEmpty() && security.operatorTokenFile().isEmpty()) {
            log.info("egress.security.operator-token is not set: the operator API /ops/v1/** answers 401");
        }
        ApiTokenFilter filter = new ApiTokenFilter(security);
        filter.register(meters);
        return filter;
    }
}
