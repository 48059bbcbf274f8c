package dev.egress.border.ssrf;

import inet.ipaddr.IPAddress;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.time.Duration;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * This host, as far as webhooks are concerned. Every address of the host (loopback, the wildcard, any
 * address of a local interface — with {@code hostNetwork} that is the node's own address) reaches
 * services that trust local callers: the App next door, the coordination node, kubelet, exporters,
 * NodePorts. The Border's own listening ports on such an address would loop through its own API.
 *
 * <p>Interface addresses are re-read at most every {@link #REFRESH} (an address added at run time is
 * picked up), on the vetting thread: enumeration is a local call taking well under a millisecond.
 */
final class OwnAddresses {

    static final Duration REFRESH = Duration.ofSeconds(5);

    private record Interfaces(Set<IPAddress> addresses, long readAtNanos) {}

    /** Reads the addresses of this host's interfaces. */
    @FunctionalInterface
    interface InterfaceAddresses {
        /**
         * Reads them.
         *
         * @return every interface address
         * @throws SocketException if the interfaces cannot be enumerated
         */
        Set<IPAddress> read() throws SocketException;
    }

    private final Set<Integer> ports = ConcurrentHashMap.newKeySet();
    private final AtomicReference<Interfaces> interfaces = new AtomicReference<>();
    private final InterfaceAddresses source;

    /** This host as its network interfaces describe it. */
    public OwnAddresses() {
        this(OwnAddresses::enumerate);
    }

    /**
     * A host with the given interface addresses: lets tests give "this host" an address outside every
     * deny range (a node's public address under {@code hostNetwork}), which the test machine may not have.
     *
     * @param source the interface addresses
     */
    OwnAddresses(InterfaceAddresses source) {
        this.source = source;
    }

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
     * @param address the address
     * @param port    the port
     * @return true if it is one of the Border's listening sockets
     */
    boolean isOwnListener(IPAddress address, int port) {
        return ports.contains(port) && isOwnHost(address);
    }

    /**
     * Whether the address belongs to this host.
     *
     * @param address the address
     * @return true for loopback, the wildcard, and every address of a local interface
     */
    boolean isOwnHost(IPAddress address) {
        if (address.isLoopback() || address.isZero() || address.isAnyLocal()) {
            return true;
        }
        return current().contains(address.withoutPrefixLength());
    }

    private Set<IPAddress> current() {
        Interfaces read = interfaces.get();
        long now = System.nanoTime();
        if (read == null || now - read.readAtNanos >= REFRESH.toNanos()) {
            read = new Interfaces(read(), now);
            interfaces.set(read);
        }
        return read.addresses;
    }

    private Set<IPAddress> read() {
        try {
            return source.read();
        } catch (SocketException e) {
            // Cannot enumerate: loopback and the wildcard are still refused above; the deny list stays.
            return Set.of();
        }
    }

    private static Set<IPAddress> enumerate() throws SocketException {
        Set<IPAddress> out = new HashSet<>();
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                out.add(Addresses.of(address));
            }
        }
        return Set.copyOf(out);
    }
}
