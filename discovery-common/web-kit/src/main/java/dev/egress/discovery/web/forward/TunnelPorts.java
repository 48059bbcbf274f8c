package dev.egress.discovery.web.forward;

import java.util.ArrayList;
import java.util.List;

/**
 * The one port rule of App's proxy and the Border's tunnel: a tunnel may go to the ports webhooks use
 * ({@link TunnelCall#DEFAULT_PORTS}, 443 and 80) and to those the operator adds ({@code egress.proxy.allowed-ports}
 * on App, {@code egress.tunnel.allowed-ports} on a Border), each a port or a range {@code low-high}. Anything else
 * (SMTP on 25, a database, an SSH port) would make the platform a raw TCP relay from its shared IPs.
 * Immutable.
 */
public final class TunnelPorts {

    /** The operator's additions, as {@code [low, high]} pairs; never changed after construction. */
    private final List<int[]> added;

    private TunnelPorts(List<int[]> added) {
        this.added = List.copyOf(added);
    }

    /**
     * Reads the operator's additions.
     *
     * @param property the property's name, for the error
     * @param entries  ports ({@code 8443}) or ranges ({@code 8000-8999}); null or empty for none
     * @return the rule
     * @throws IllegalArgumentException naming the property and the entry, for anything else
     */
    public static TunnelPorts parse(String property, List<String> entries) {
        List<int[]> ranges = new ArrayList<>();
        for (String entry : entries == null ? List.<String>of() : entries) {
            String text = entry == null ? "" : entry.strip();
            int dash = text.indexOf('-');
            try {
                int low = Integer.parseInt(
                        dash < 0 ? text : text.substring(0, dash).strip());
                int high = dash < 0
                        ? low
                        : Integer.parseInt(text.substring(dash + 1).strip());
                if (low < 1 || high > 65535 || low > high) {
                    throw new NumberFormatException();
                }
                ranges.add(new int[] {low, high});
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        "%s: '%s' (expected: a port 1..65535 or a range low-high)".formatted(property, text));
            }
        }
        return new TunnelPorts(ranges);
    }

    /**
     * Whether a tunnel may go to a port.
     *
     * @param port the target port
     * @return true for 443, 80 and the ports the operator added
     */
    public boolean allows(int port) {
        if (TunnelCall.DEFAULT_PORTS.contains(port)) {
            return true;
        }
        for (int[] range : added) {
            if (port >= range[0] && port <= range[1]) {
                return true;
            }
        }
        return false;
    }
}
