package dev.egress.discovery.registry.ydb;

import dev.egress.discovery.Announcement;
import dev.egress.discovery.registry.BorderRegistry;
import dev.egress.discovery.registry.Registration;
import dev.egress.discovery.registry.RegistrySettings;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Publish side of the registry on a YDB coordination node. NOT BUILT YET: placeholder that fixes the
 * signature services wire against; the implementation lands with the registry adapter issue.
 */
public final class YdbBorderRegistry implements BorderRegistry {

    private YdbBorderRegistry() {
    }

    /**
     * Creates the registry client. Returns at once; all I/O (transport, node and semaphore creation,
     * sessions) happens in the background with retries, so a Border starts even while YDB is down.
     *
     * @param settings where the registry is
     * @param meters   metrics registry
     * @return the client
     */
    public static YdbBorderRegistry connect(RegistrySettings settings, MeterRegistry meters) {
        throw new UnsupportedOperationException("registry adapter not built yet");
    }

    @Override
    public Registration register(Announcement initial) {
        throw new UnsupportedOperationException("registry adapter not built yet");
    }

    @Override
    public void close() {
    }
}
