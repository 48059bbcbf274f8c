package dev.egress.discovery.registry.ydb;

import dev.egress.discovery.RoutingTable;
import dev.egress.discovery.registry.RegistrySettings;
import dev.egress.discovery.registry.RegistryWatcher;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Read side of the registry on a YDB coordination node. NOT BUILT YET: placeholder that fixes the
 * signature services wire against; the implementation lands with the registry adapter issue.
 */
public final class YdbRegistryWatcher implements RegistryWatcher {

    private YdbRegistryWatcher() {
    }

    /**
     * Starts watching. Returns at once; the table becomes ready with the first successful read.
     *
     * @param settings where the registry is
     * @param table    the table to keep current
     * @param meters   metrics registry
     * @return the running watcher
     */
    public static YdbRegistryWatcher start(RegistrySettings settings, RoutingTable table, MeterRegistry meters) {
        throw new UnsupportedOperationException("registry adapter not built yet");
    }

    @Override
    public void close() {
    }
}
