package dev.egress.system;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A latency line for TCP, in user space: what {@code tc netem delay} does in the kernel, for kernels
 * without {@code sch_netem}. Every connection accepted is forwarded to one upstream address, and every
 * chunk read from either side is written to the other side {@code delay} after it was read — in order,
 * without throttling: chunks queue up and travel while later ones are still being read, as on a long
 * link with enough bandwidth. The upstream connection is opened one round trip (2 × delay) after the
 * client's, as a TCP handshake over such a link would take; an end of stream is passed on with the same
 * delay (a half-close), a reset closes both sides.
 *
 * <p>What it does not do: lose or reorder packets (nftables drops them on the wire for that), or delay
 * the handshake the client sees — the client's {@code connect()} completes at once, its first bytes wait.
 */
final class LatencyRelay implements AutoCloseable {

    private static final int CHUNK = 16 * 1024;

    /** One read, due to be written at {@code dueNanos}; {@code data == null} is the end of the stream. */
    private record Chunk(byte[] data, long dueNanos) {}

    private final ServerSocket server;
    private final InetSocketAddress upstream;
    private final long delayNanos;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "latency-relay");
        t.setDaemon(true);
        return t;
    });
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicLong connections = new AtomicLong();
    private final AtomicLong bytesUp = new AtomicLong();
    private final AtomicLong bytesDown = new AtomicLong();
    private volatile boolean closed;

    private LatencyRelay(ServerSocket server, InetSocketAddress upstream, Duration delay) {
        this.server = server;
        this.upstream = upstream;
        this.delayNanos = delay.toNanos();
    }

    /**
     * Listens on {@code bind} (port 0: any free port) and forwards to {@code upstream} with a delay.
     *
     * @param bind     the address to listen on; also the source address of upstream connections
     * @param upstream where every connection goes
     * @param delay    added to every chunk, each way
     * @return the running relay
     * @throws IOException if the address cannot be bound
     */
    static LatencyRelay start(InetAddress bind, InetSocketAddress upstream, Duration delay) throws IOException {
        ServerSocket server = new ServerSocket();
        server.bind(new InetSocketAddress(bind, 0), 256);
        LatencyRelay relay = new LatencyRelay(server, upstream, delay);
        relay.threads.execute(relay::acceptLoop);
        return relay;
    }

    int port() {
        return server.getLocalPort();
    }

    /** Connections accepted so far. */
    long connections() {
        return connections.get();
    }

    /** Bytes forwarded client → upstream so far. */
    long bytesUp() {
        return bytesUp.get();
    }

    /** Bytes forwarded upstream → client so far. */
    long bytesDown() {
        return bytesDown.get();
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = server.accept();
                connections.incrementAndGet();
                threads.execute(() -> relay(client));
            } catch (IOException e) {
                if (closed) {
                    return;
                }
            }
        }
    }

    private void relay(Socket client) {
        Socket target = new Socket();
        Runnable closeBoth = () -> {
            closeQuietly(client);
            closeQuietly(target);
        };
        track(client);
        track(target);
        AtomicInteger ended = new AtomicInteger();
        Runnable halfClosed = () -> {
            if (ended.incrementAndGet() == 2) {
                closeBoth.run();
            }
        };
        BlockingQueue<Chunk> up = new LinkedBlockingQueue<>();
        BlockingQueue<Chunk> down = new LinkedBlockingQueue<>();
        try {
            client.setTcpNoDelay(true);
            // The client's first bytes are read (and their delay starts) while the upstream "handshake" runs.
            threads.execute(() -> read(client, up, bytesUp, closeBoth));
            waitUntil(System.nanoTime() + 2 * delayNanos);
            target.bind(new InetSocketAddress(server.getInetAddress(), 0));
            target.connect(upstream, 5_000);
            target.setTcpNoDelay(true);
        } catch (IOException e) {
            closeBoth.run();
            return;
        }
        threads.execute(() -> read(target, down, bytesDown, closeBoth));
        threads.execute(() -> write(down, client, closeBoth, halfClosed));
        write(up, target, closeBoth, halfClosed);
    }

    private void read(Socket from, BlockingQueue<Chunk> line, AtomicLong counter, Runnable closeBoth) {
        byte[] buffer = new byte[CHUNK];
        try {
            // Not closed here: closing a socket's stream closes the socket, and the other way still runs.
            InputStream in = from.getInputStream();
            int n;
            while ((n = in.read(buffer)) >= 0) {
                line.add(new Chunk(Arrays.copyOf(buffer, n), System.nanoTime() + delayNanos));
                counter.addAndGet(n);
            }
            line.add(new Chunk(null, System.nanoTime() + delayNanos));
        } catch (IOException reset) {
            closeBoth.run();
        }
    }

    private void write(BlockingQueue<Chunk> line, Socket to, Runnable closeBoth, Runnable halfClosed) {
        try {
            OutputStream out = to.getOutputStream();
            while (!to.isClosed()) {
                Chunk chunk = line.poll(1, TimeUnit.SECONDS);
                if (chunk == null) {
                    continue;
                }
                waitUntil(chunk.dueNanos());
                if (chunk.data() == null) {
                    to.shutdownOutput();
                    halfClosed.run();
                    return;
                }
                out.write(chunk.data());
                out.flush();
            }
        } catch (IOException e) {
            closeBoth.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closeBoth.run();
        }
    }

    /** The emulated flight time: parks until a deadline (this is the delay itself, not a test's wait). */
    private static void waitUntil(long dueNanos) {
        long left;
        while ((left = dueNanos - System.nanoTime()) > 0
                && !Thread.currentThread().isInterrupted()) {
            LockSupport.parkNanos(left);
        }
    }

    private void track(Socket socket) {
        open.add(socket);
        if (closed) {
            closeQuietly(socket);
        }
    }

    private void closeQuietly(Socket socket) {
        open.remove(socket);
        try {
            socket.close();
        } catch (IOException e) {
            // Closing is all that is left to do.
        }
    }

    /** Stops listening and closes every relayed connection. */
    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            // Already closed.
        }
        open.forEach(this::closeQuietly);
        threads.shutdownNow();
    }
}
