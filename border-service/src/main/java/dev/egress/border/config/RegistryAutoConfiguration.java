package dev.egress.border.config;

import dev.egress.discovery.AnnouncementWriter;
import dev.egress.discovery.registry.BorderRegistry;
import dev.egress.discovery.registry.ydb.YdbBorderRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The YDB registry, unless the context already has a {@link BorderRegistry} (tests supply a double).
 * An auto-configuration rather than a plain configuration so that the condition sees user beans.
 */
@AutoConfiguration
public class RegistryAutoConfiguration {

    /**
     * Connects to the registry (returns at once; I/O runs in the background).
     *
     * @param registry the registry properties
     * @param security  whether plaintext tokens are allowed (local runs only)
     * @param meters   metrics
     * @param writer   how announcements become owner data (signed unless {@code insecure-local})
     * @return the registry client
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(BorderRegistry.class)
    public BorderRegistry borderRegistry(RegistryProperties registry, SecurityProperties security, MeterRegistry meters,
                                         ObjectProvider<AnnouncementWriter> writer) {
        return YdbBorderRegistry.connect(registry.toSettings(security.insecureLocal()), meters,
                writer.getIfAvailable(AnnouncementWriter::unsigned));
    }
}
