package dev.egress.discovery;

/**
 * What a Border does with one of its dedicated IPs. The declaration order is the preference order:
 * when several Borders host one IP, the IP's overall status is the best of theirs.
 */
public enum IpStatus {
    /** Takes new traffic. */
    ACTIVE,
    /** Finishes in-flight calls and takes no new ones. */
    DRAINING,
    /** Taken out by an operator. */
    DISABLED;

    /**
     * Whether new deliveries may use an IP in this status.
     *
     * @return true only for {@link #ACTIVE}
     */
    public boolean takesNewTraffic() {
        return this == ACTIVE;
    }

    /**
     * The better of two statuses (ACTIVE over DRAINING over DISABLED).
     *
     * @param other the status to compare with
     * @return the preferred status
     */
    public IpStatus best(IpStatus other) {
        return compareTo(other) <= 0 ? this : other;
    }
}
