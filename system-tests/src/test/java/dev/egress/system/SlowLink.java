package dev.egress.system;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * A slow link between App and one Border, for {@link NetworkPartitionsIT}: a delay and a random loss.
 * Where the kernel has {@code sch_netem}, {@code tc netem} on the Border's interface does both (it
 * delays what the Border sends). Where it does not (our CI's kernel has no modules at all), the delay
 * is emulated in user space and the loss on the wire:
 * <ul>
 *   <li>a {@link LatencyRelay} in the test JVM, on the test's own address on the bridge, delays every
 *       chunk between App and the Border by {@code delay} each way;</li>
 *   <li>nftables DNAT in App's namespace sends App's new connections to the Border's advertised address
 *       to the relay instead (nothing about the Border changes: same URL, same registration), and the
 *       connections App already had are reset on the Border's side, so App reaches the Border only
 *       through the relay;</li>
 *   <li>the bridge drops {@code lossPercent} of the packets to and from the Border at random
 *       ({@link NetworkTopology#lossy}), on the relay's leg and on the Border's own (customer, registry).</li>
 * </ul>
 * The relay's variant delays only App ↔ Border; netem delays everything the Border sends, the webhook
 * to the customer included.
 */
final class SlowLink implements AutoCloseable {

    private static final String DIVERSION = "slowlink";
    private static final String LOSS = "slow-loss";

    private final NetworkTopology net;
    private final String border;
    private final String emulation;
    private final LatencyRelay relay;
    private final int resetAtStart;

    private SlowLink(NetworkTopology net, String border, String emulation, LatencyRelay relay, int resetAtStart) {
        this.net = net;
        this.border = border;
        this.emulation = emulation;
        this.relay = relay;
        this.resetAtStart = resetAtStart;
    }

    /**
     * Makes the link between App and an IPv4 Border slow, by netem if the kernel has it.
     *
     * @param net         the network
     * @param border      the Border's host name
     * @param address     its service (advertised) IPv4 address
     * @param port        its service port
     * @param delay       added each way
     * @param lossPercent packets dropped at random, each way
     * @return the slow link, until closed
     * @throws IOException if the relay cannot listen
     */
    static SlowLink open(NetworkTopology net, String border, String address, int port, Duration delay, int lossPercent)
            throws IOException {
        String netem = net.netemUnavailableReason();
        if (netem == null) {
            net.netem(border, "delay %dms loss %d%%".formatted(delay.toMillis(), lossPercent));
            return new SlowLink(
                    net,
                    border,
                    "tc netem on %s's interface (delay %d ms, loss %d %%)"
                            .formatted(border, delay.toMillis(), lossPercent),
                    null,
                    0);
        }
        if (address.contains(":")) {
            throw new IllegalArgumentException(
                    "address: " + address + " (expected: IPv4, the diversion is 'table ip')");
        }
        LatencyRelay relay = LatencyRelay.start(
                InetAddress.getByName(NetworkTopology.TEST_HOST), new InetSocketAddress(address, port), delay);
        try {
            net.lossy(LOSS, border, lossPercent);
            net.divert(DIVERSION, "app", address, port, NetworkTopology.TEST_HOST, relay.port());
            // Established connections are not diverted: make App open new ones (the load is stopped, they are idle).
            int reset = net.resetConnections(border, port, NetworkPlatform.APP);
            await("App reaches " + border + " only through the relay")
                    .atMost(Duration.ofSeconds(70))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> net.connections(border, port, NetworkPlatform.APP) == 0);
            return new SlowLink(
                    net,
                    border,
                    ("user-space latency relay (%d ms each way, App <-> %s) + nftables loss"
                                    + " (%d %% each way on %s's link), because %s")
                            .formatted(delay.toMillis(), border, lossPercent, border, netem),
                    relay,
                    reset);
        } catch (RuntimeException e) {
            net.undivert(DIVERSION, "app");
            net.heal(LOSS);
            relay.close();
            throw e;
        }
    }

    /** How the link is emulated here, for the test output. */
    String emulation() {
        return emulation;
    }

    /** Whether the delay is the user-space relay's (the kernel lacks netem). */
    boolean relayed() {
        return relay != null;
    }

    /** Connections App has open to the Border without the relay (0 while the relay is in the way). */
    int directConnections(int port) {
        return net.connections(border, port, NetworkPlatform.APP);
    }

    /**
     * What the emulation counted, for the test output.
     *
     * @return a line of figures
     */
    String figures() {
        if (relay == null) {
            return "netem's counters: " + net.qdiscStatistics(border);
        }
        return ("relay: %d connections, %d bytes App -> %s, %d back; App's direct connections reset at the switch: %d;"
                        + " packets dropped on the wire: %d")
                .formatted(
                        relay.connections(),
                        relay.bytesUp(),
                        border,
                        relay.bytesDown(),
                        resetAtStart,
                        droppedOnTheWire());
    }

    /** Packets the bridge dropped for the relay's variant so far (-1 with netem). */
    long droppedOnTheWire() {
        return relay == null ? -1 : net.droppedOnTheWire(LOSS);
    }

    /** Puts the link back: App's next connections go straight to the Border again. */
    @Override
    public void close() {
        if (relay == null) {
            net.clearNetem(border);
            return;
        }
        // The relay first: it ends the diverted connections (idle: the load is stopped) while their
        // translation still exists, so App sees them closed, not reset; its next ones go straight.
        relay.close();
        net.undivert(DIVERSION, "app");
        net.heal(LOSS);
    }
}
