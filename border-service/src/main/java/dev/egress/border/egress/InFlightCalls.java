package dev.egress.border.egress;

import dev.egress.discovery.registry.EgressIp;

/** Read-only view of the egress calls in flight, for the operator API. */
public interface InFlightCalls {

    /**
     * Calls in flight from one IP.
     *
     * @param ip the IP
     * @return the count (0 for an IP not hosted here)
     */
    int inFlight(EgressIp ip);

    /**
     * Whether the Border has stopped taking new calls (shutdown in progress).
     *
     * @return true while draining
     */
    boolean draining();
}
