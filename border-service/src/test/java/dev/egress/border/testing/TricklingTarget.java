package dev.egress.border.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A webhook target that announces a large body and then sends it one byte every 200 ms: never silent
 * long enough for a response timeout, never done. It records whether the caller gave up and closed.
 */
public final class TricklingTarget implements AutoCloseable {

    private final ServerSocket server;
    private final Thread thread;
    private final ScheduledExecutorService trickle = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "trickling-target-bytes");
        t.setDaemon(true);
        return t;
    });
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
            // One body byte every 200 ms, from a scheduler; the socket stays open until the caller closes it.
            trickle.scheduleAtFixedRate(() -> sendOneByte(out), 0, 200, TimeUnit.MILLISECONDS)
                    .get();
        } catch (IOException e) {
            // No request arrived, or the socket could not be set up: closedByPeer stays false.
        } catch (ExecutionException | CancellationException e) {
            // The trickle ended: a write failed (closedByPeer is set) or the target was closed.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void sendOneByte(OutputStream out) {
        if (bytesSent.get() >= 1_000_000) {
            throw new IllegalStateException("the announced body is complete");
        }
        try {
            out.write('x');
            out.flush();
            bytesSent.incrementAndGet();
        } catch (IOException e) {
            // A write failed mid-body: the caller closed the connection. Throwing ends the schedule.
            closedByPeer.set(true);
            throw new UncheckedIOException(e);
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
        trickle.shutdownNow();
        thread.interrupt();
        server.close();
    }
}
