package dev.egress.discovery.web.forward;

/**
 * The paths of the Border's internal door, which only App calls (internal token, and App's client certificate
 * on the trust chain). Both sides take them from here, so a path cannot change on one side only.
 */
public final class BorderPaths {

    /** App's forward call: {@code POST} a {@link ForwardRequest}, answered with a {@link ForwardResponse}. */
    public static final String EGRESS = "/internal/v1/egress";

    /** App's side of the fleet-wide IP change: {@code PUT} an {@link IpStatusChange} (the mapping's template). */
    public static final String IP = "/internal/v1/ips/{ip}";

    /**
     * App's side of an operator's move of a dedicated IP: {@code PUT} an {@link IpRelease} to release the IP on a
     * Border (it keeps hosting it but no longer claims it) or to claim it again (the mapping's template).
     */
    public static final String IP_RELEASE = "/internal/v1/ips/{ip}/release";

    private static final String IPS = "/internal/v1/ips/";

    private BorderPaths() {}

    /**
     * The path of one IP's status change.
     *
     * @param ip the IP, as written in the announcement
     * @return {@link #IP} with the IP filled in
     */
    public static String ip(String ip) {
        return IPS + ip;
    }

    /**
     * The path of one IP's release.
     *
     * @param ip the IP, as written in the announcement
     * @return {@link #IP_RELEASE} with the IP filled in
     */
    public static String ipRelease(String ip) {
        return IPS + ip + "/release";
    }
}
