package dev.egress.discovery.registry.ydb.boot;

import dev.egress.discovery.registry.AnnouncementReader;
import dev.egress.discovery.registry.AnnouncementWriter;
import dev.egress.discovery.registry.BorderRegistry;
import dev.egress.discovery.registry.RegistryWatcher;
import dev.egress.discovery.registry.RoutingTable;
import dev.egress.discovery.registry.ydb.YdbRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * The registry clients of both services, from {@link RegistryProperties}. Which client a service gets
 * follows from what it has: a context that writes announcements (a Border, with its
 * {@link AnnouncementWriter}) publishes them through a {@link BorderRegistry}; one that reads them into a
 * {@link RoutingTable} (the App, with its {@link AnnouncementReader}) watches through a
 * {@link RegistryWatcher}, and only when {@code egress.registry.connection-string} is set. A bean the
 * context already has (a test double) wins. An auto-configuration rather than a plain configuration so
 * that these conditions see the services' own beans.
 */
@AutoConfiguration
@EnableConfigurationProperties(RegistryProperties.class)
public class RegistryAutoConfiguration {

    /** A watching context without an owner of {@code egress.routing.poll-interval} polls at its default. */
    private static final WatcherPolling DEFAULT_POLLING =
            () -> DurationStyle.detectAndParse(WatcherPolling.DEFAULT_POLL_INTERVAL);

    /** Creates the configuration; Spring instantiates it from the auto-configuration imports. */
    public RegistryAutoConfiguration() {}

    /**
     * Connects a Border to the registry (returns at once; I/O runs in the background).
     *
     * @param registry    the registry properties
     * @param environment where {@code egress.security.insecure-local} is read (plaintext tokens, local runs only)
     * @param meters      metrics
     * @param writer      how announcements become owner data (signed unless {@code insecure-local})
     * @return the registry client
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnBean(AnnouncementWriter.class)
    @ConditionalOnMissingBean(BorderRegistry.class)
    public BorderRegistry borderRegistry(
            RegistryProperties registry, Environment environment, MeterRegistry meters, AnnouncementWriter writer) {
        return YdbRegistry.at(registry.publisherSettings(insecureLocal(environment)), meters)
                .writer(writer)
                .connect();
    }

    /**
     * Starts the App's registry watcher, which feeds the routing table (returns at once; I/O runs in the
     * background).
     *
     * @param registry    the registry properties
     * @param polling     the owner of {@code egress.routing.poll-interval} (the App's routing properties),
     *                    which binds and validates it; none means the default
     * @param environment where {@code egress.security.insecure-local} is read
     * @param table       the routing table to feed
     * @param meters      metrics
     * @param reader      how owner data becomes announcements (signatures verified unless {@code insecure-local})
     * @return the watcher
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnBean({RoutingTable.class, AnnouncementReader.class})
    @ConditionalOnMissingBean(RegistryWatcher.class)
    @ConditionalOnExpression("!'${egress.registry.connection-string:}'.isBlank()")
    public RegistryWatcher registryWatcher(
            RegistryProperties registry,
            ObjectProvider<WatcherPolling> polling,
            Environment environment,
            RoutingTable table,
            MeterRegistry meters,
            AnnouncementReader reader) {
        Duration poll = polling.getIfAvailable(() -> DEFAULT_POLLING).pollInterval();
        return YdbRegistry.at(registry.watcherSettings(poll, insecureLocal(environment)), meters)
                .reader(reader)
                .watch(table);
    }

    private static boolean insecureLocal(Environment environment) {
        return Binder.get(environment)
                .bind("egress.security.insecure-local", Boolean.class)
                .orElse(false);
    }
}
