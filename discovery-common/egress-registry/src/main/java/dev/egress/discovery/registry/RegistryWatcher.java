package dev.egress.discovery.registry;

/**
 * Read side of the registry, used by Apps: keeps a {@link dev.egress.discovery.registry.RoutingTable} current
 * from the semaphore's owners (watch plus a polling safety net). The request path never calls it.
 */
public interface RegistryWatcher extends AutoCloseable {

    /** Stops watching; the table keeps its last snapshot. */
    @Override
    void close();
}
