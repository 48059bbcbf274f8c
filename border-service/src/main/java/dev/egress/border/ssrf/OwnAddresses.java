package dev.egress.border.ssrf;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Border's own listening sockets, which no webhook may target (a loop through the Border's own
 * API would bypass the internal token). A target is "own" when its port is a listening port and its
 * address belongs to this host (loopback, wildcard, or an address of a local interface).
 */
public final class OwnAddresses {

    private final Set<Integer> ports = ConcurrentHashMap.newKeySet();

    /**
     * Records a listening port (called when the web server, or a management server, has started).
     *
     * @param port the bound port
     */
    public void addListeningPort(int port) {
        if (port > 0) {
            ports.add(port);
        }
    }

    /**
     * Whether connecting to this address and port would reach the Border itself.
     *
     * @param address the resolved address
     * @param port    the port
     * @return true if it is one of the Border's listening sockets
     */
    public boolean isOwn(InetAddress address, int port) {
        if (!ports.contains(port)) {
            return false;
        }
        if (address.isLoopbackAddress() || address.isAnyLocalAddress()) {
            return true;
        }
        try {
            return NetworkInterface.getByInetAddress(address) != null;
        } catch (SocketException e) {
            // Cannot tell: refuse rather than risk a loop.
            return true;
        }
    }
}
