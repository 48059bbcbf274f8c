package dev.egress.ydb.coordination.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Listening ports for services that a test starts as separate processes, and ports where nothing listens.
 * In ydb-embedded's test-jar, the lowest module every test module reaches.
 */
public final class ListenPorts {

    private ListenPorts() {}

    /**
     * A port that is free on the wildcard address and lies below Linux's ephemeral range (32768+).
     * A port from {@code new ServerSocket(0)} is in that range, and between probing it and the child
     * process binding it, any outgoing connection on the machine (Borders' bound clients, gRPC channels)
     * may take it as its source port — seen in practice on a busy machine.
     *
     * @return a free port in 20000..31999
     */
    public static int freeOutsideEphemeralRange() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < 200; i++) {
            int candidate = random.nextInt(20_000, 32_000);
            try (ServerSocket probe = new ServerSocket()) {
                probe.setReuseAddress(false);
                probe.bind(new InetSocketAddress(candidate));
                return candidate;
            } catch (IOException taken) {
                // try another
            }
        }
        throw new UncheckedIOException(new IOException("no free port in 20000..31999"));
    }

    /**
     * A port where nothing listens, for a target that must refuse the connection: free when asked for,
     * and outside the ephemeral range, so an outgoing connection of the machine does not take it meanwhile.
     *
     * @return a port in 20000..31999 with no listener
     */
    public static int nothingListening() {
        return freeOutsideEphemeralRange();
    }
}
