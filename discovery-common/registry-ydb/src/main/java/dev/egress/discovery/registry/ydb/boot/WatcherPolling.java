package dev.egress.discovery.registry.ydb.boot;

import java.time.Duration;

/**
 * The registry watcher's safety-net poll period ({@code egress.routing.poll-interval}), as bound and
 * validated by the service that owns the property: the App's routing properties implement it, and
 * {@link RegistryAutoConfiguration} hands their value to the watcher. One owner, so that the name, the
 * default and the rule cannot drift apart between the App and the registry library. A watching context
 * without an owner (a test) polls every {@link #DEFAULT_POLL_INTERVAL}.
 */
public interface WatcherPolling {

    /** The documented default of {@code egress.routing.poll-interval}, in the property's own notation. */
    String DEFAULT_POLL_INTERVAL = "500ms";

    /**
     * How often the watcher polls the registry besides its owners watch.
     *
     * @return the validated poll period (at least {@link dev.egress.discovery.registry.RegistrySettings#MIN_POLL_INTERVAL})
     */
    Duration pollInterval();
}
