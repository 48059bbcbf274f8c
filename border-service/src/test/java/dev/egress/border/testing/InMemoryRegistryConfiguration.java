package dev.egress.border.testing;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/** Replaces the YDB registry with {@link InMemoryBorderRegistry} in Spring-level tests. */
@TestConfiguration(proxyBeanMethods = false)
public class InMemoryRegistryConfiguration {

    /**
     * The registry double.
     *
     * @return a fresh registry
     */
    @Bean
    public InMemoryBorderRegistry inMemoryBorderRegistry() {
        return new InMemoryBorderRegistry();
    }
}
