package dev.egress.discovery.select;

import dev.egress.discovery.Route;

/** The tie-break of the hashing strategies, so a (practically impossible) tie is still deterministic. */
final class RouteOrder {

    private RouteOrder() {
    }

    /**
     * Whether {@code a} wins a tie against {@code b}: smaller Border id, then smaller IP.
     *
     * @param a a route
     * @param b another route
     * @return true if {@code a} goes first
     */
    static boolean before(Route a, Route b) {
        int byBorder = a.borderId().compareTo(b.borderId());
        return byBorder != 0 ? byBorder < 0 : a.ip().compareTo(b.ip()) < 0;
    }
}
