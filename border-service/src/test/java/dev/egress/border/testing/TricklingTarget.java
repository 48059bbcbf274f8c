package dev.egress.border.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A webhook target that announces a large body and then sends it one byte every 200 ms: never silent
 * long enough for a response timeout, never done. It records whether the caller gave up and closed.
 */
public final class TricklingTarget implements AutoCloseable {

    private final ServerSocket server;
    private final Thread thread;
    private final AtomicInteger bytesSent = new AtomicInteger();
    private final AtomicBoolean closedByPeer = new AtomicBoolean();

    private TricklingTarget(ServerSocket server) {
        this.server = server;
        this.thread = new Thread(this::serveOne, "trickling-target");
        this.thread.setDaemon(true);
    }

    /**
     * Starts the target on 127.0.0.1 and an ephemeral port; it serves one connection.
     *
     * @return the running target
     * @throws IOException if the port cannot be bound
     */
    public static TricklingTarget start() throws IOException {
        TricklingTarget target = new TricklingTarget(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
        target.thread.start();
        return target;
    }

    private void serveOne() {
        try (Socket socket = server.accept()) {
            readRequestHead(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            out.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1000000\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            trickle(out);
        } catch (IOException e) {
            // No request arrived, or the socket could not be set up: closedByPeer stays false.
        }
    }

    private void trickle(OutputStream out) {
        try {
            for (int i = 0; i < 1_000_000; i++) {
                out.write('x');
                out.flush();
                bytesSent.incrementAndGet();
                Thread.sleep(200); // the trickle itself, not a test wait
            }
        } catch (IOException e) {
            // A write failed mid-body: the caller closed the connection.
            closedByPeer.set(true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void readRequestHead(InputStream in) throws IOException {
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        while (matched < end.length) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("request ended early");
            }
            matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
        }
    }

    /**
     * The port the target listens on.
     *
     * @return the port
     */
    public int port() {
        return server.getLocalPort();
    }

    /**
     * Body bytes sent so far.
     *
     * @return the count
     */
    public int bytesSent() {
        return bytesSent.get();
    }

    /**
     * Whether the caller closed the connection while the body was still coming.
     *
     * @return true once a write failed
     */
    public boolean closedByPeer() {
        return closedByPeer.get();
    }

    @Override
    public void close() throws IOException {
        thread.interrupt();
        server.close();
    }
}
