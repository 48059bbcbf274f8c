package dev.egress.border.testing;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A webhook target on 127.0.0.1 that answers every request with whatever bytes the test sets (broken
 * HTTP included) and then closes the connection. It counts the requests it saw.
 */
public final class RawTarget implements AutoCloseable {

    private final ServerSocket server;
    private final Thread thread;
    private final AtomicInteger requests = new AtomicInteger();
    private volatile byte[] answer = new byte[0];

    private RawTarget(ServerSocket server) {
        this.server = server;
        this.thread = new Thread(this::serve, "raw-target");
        this.thread.setDaemon(true);
    }

    /**
     * Starts the target on 127.0.0.1 and an ephemeral port.
     *
     * @return the running target
     * @throws IOException if the port cannot be bound
     */
    public static RawTarget start() throws IOException {
        RawTarget target = new RawTarget(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
        target.thread.start();
        return target;
    }

    /**
     * Sets what the next connections receive.
     *
     * @param bytes the raw answer
     */
    public void answer(byte[] bytes) {
        this.answer = bytes.clone();
    }

    /**
     * The port.
     *
     * @return the port
     */
    public int port() {
        return server.getLocalPort();
    }

    /**
     * How many requests arrived.
     *
     * @return the count
     */
    public int requests() {
        return requests.get();
    }

    private void serve() {
        while (!server.isClosed()) {
            try (Socket socket = server.accept()) {
                socket.setSoTimeout(5000);
                readHead(socket.getInputStream());
                requests.incrementAndGet();
                socket.getOutputStream().write(answer);
                socket.getOutputStream().flush();
                socket.shutdownOutput();
                // Let the client read what it got before the connection goes away.
                socket.getInputStream().read(new byte[4096]);
            } catch (IOException e) {
                // Next connection.
            }
        }
    }

    private static void readHead(InputStream in) throws IOException {
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        int b;
        while (matched < 4 && (b = in.read()) >= 0) {
            matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
