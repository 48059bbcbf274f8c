package dev.egress.border.testing;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A tiny UDP DNS server on 127.0.0.1 for tests: answers {@code A} queries for the names it was given,
 * answers other names with NXDOMAIN and {@code AAAA} queries with no records, and never answers at all
 * for names under {@link #SILENT_ZONE} (a DNS server that hangs). Enough of RFC 1035 for Netty's resolver.
 */
public final class LocalDnsServer implements AutoCloseable {

    /** Queries for names in this zone are read and never answered. */
    public static final String SILENT_ZONE = "silent.test";

    private final DatagramSocket socket;
    private final Map<String, InetAddress> records;
    private final Thread thread;
    private final AtomicInteger unanswered = new AtomicInteger();

    private LocalDnsServer(DatagramSocket socket, Map<String, InetAddress> records) {
        this.socket = socket;
        this.records = Map.copyOf(records);
        this.thread = new Thread(this::serve, "local-dns");
        this.thread.setDaemon(true);
    }

    /**
     * Starts the server on 127.0.0.1 and an ephemeral port.
     *
     * @param records name (lower case, no trailing dot) to IPv4 address
     * @return the running server
     * @throws SocketException if the port cannot be bound
     */
    public static LocalDnsServer start(Map<String, InetAddress> records) throws SocketException {
        LocalDnsServer server = new LocalDnsServer(
                new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)), records);
        server.thread.start();
        return server;
    }

    /**
     * Where to point {@code egress.dns.servers}.
     *
     * @return {@code 127.0.0.1:port}
     */
    public String address() {
        return "127.0.0.1:" + socket.getLocalPort();
    }

    /**
     * How many queries were left unanswered (names in the silent zone).
     *
     * @return the count
     */
    public int unanswered() {
        return unanswered.get();
    }

    private void serve() {
        byte[] buffer = new byte[512];
        while (!socket.isClosed()) {
            DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
            try {
                socket.receive(packet);
                byte[] reply = answer(ByteBuffer.wrap(packet.getData(), 0, packet.getLength()));
                if (reply != null) {
                    socket.send(new DatagramPacket(reply, reply.length, packet.getSocketAddress()));
                }
            } catch (IOException | RuntimeException e) {
                // Closed, or a query we cannot read: drop it.
            }
        }
    }

    private byte[] answer(ByteBuffer query) {
        int id = query.getShort(0) & 0xffff;
        int questions = query.getShort(4) & 0xffff;
        if (questions != 1) {
            return null;
        }
        int position = 12;
        StringBuilder name = new StringBuilder();
        while (true) {
            int length = query.get(position++) & 0xff;
            if (length == 0) {
                break;
            }
            if (!name.isEmpty()) {
                name.append('.');
            }
            name.append(new String(query.array(), query.arrayOffset() + position, length, StandardCharsets.US_ASCII));
            position += length;
        }
        int type = query.getShort(position) & 0xffff;
        int questionEnd = position + 4;
        String host = name.toString().toLowerCase(Locale.ROOT);
        if (host.equals(SILENT_ZONE) || host.endsWith("." + SILENT_ZONE)) {
            unanswered.incrementAndGet();
            return null;
        }
        InetAddress address = records.get(host);
        boolean hasAnswer = address != null && type == 1;
        int rcode = records.containsKey(host) ? 0 : 3;
        ByteBuffer out = ByteBuffer.allocate(questionEnd + (hasAnswer ? 16 : 0));
        out.putShort((short) id);
        // QR=1, opcode 0, AA=1, RD copied, RA=1, rcode.
        int rd = query.get(2) & 0x01;
        out.put((byte) (0x84 | rd));
        out.put((byte) (0x80 | rcode));
        out.putShort((short) 1);
        out.putShort((short) (hasAnswer ? 1 : 0));
        out.putShort((short) 0);
        out.putShort((short) 0);
        out.put(query.array(), query.arrayOffset() + 12, questionEnd - 12);
        if (hasAnswer) {
            out.putShort((short) 0xc00c);
            out.putShort((short) 1);
            out.putShort((short) 1);
            out.putInt(1);
            out.putShort((short) 4);
            out.put(address.getAddress());
        }
        return out.array();
    }

    @Override
    public void close() {
        socket.close();
    }
}
