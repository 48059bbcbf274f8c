package dev.egress.system;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;

/**
 * The customer's webhook receiver in {@link NetworkTopology}'s {@code customer} namespace: a separate
 * process (the test JVM lives outside the namespace), listening dual-stack on the ports it is given and
 * appending one line per request to a file the test reads —
 * {@code peer \t local-port \t path \t received-at-epoch-millis \t body} — so the peer address is what the
 * customer's socket saw after its firewall, and the time tells a delivery that arrived after App had already
 * answered its caller with a failure.
 *
 * <p>Usage: {@code java -cp <test classes> dev.egress.system.CustomerReceiver <record file> <port>...}.
 */
public final class CustomerReceiver {

    private CustomerReceiver() {}

    /**
     * Serves until the process is stopped.
     *
     * @param args the record file, then one or more ports
     * @throws IOException if a port cannot be bound
     */
    public static void main(String[] args) throws IOException {
        Path records = Path.of(args[0]);
        Object lock = new Object();
        for (int i = 1; i < args.length; i++) {
            int port = Integer.parseInt(args[i]);
            // "::" is dual-stack: IPv4 peers arrive as plain IPv4 addresses.
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("::"), port), 256);
            server.setExecutor(Executors.newFixedThreadPool(8));
            server.createContext("/", exchange -> {
                try (exchange;
                        InputStream in = exchange.getRequestBody()) {
                    String body = new String(in.readAllBytes(), StandardCharsets.UTF_8)
                            .replace('\n', ' ')
                            .replace('\t', ' ');
                    String line = exchange.getRemoteAddress().getAddress().getHostAddress() + "\t" + port + "\t"
                            + exchange.getRequestURI().getRawPath() + "\t" + System.currentTimeMillis() + "\t" + body
                            + "\n";
                    synchronized (lock) {
                        Files.writeString(records, line, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                    }
                    byte[] reply = "{\"ok\":true}".getBytes(StandardCharsets.UTF_8);
                    exchange.getResponseHeaders().add("Content-Type", "application/json");
                    exchange.sendResponseHeaders(200, reply.length);
                    try (OutputStream out = exchange.getResponseBody()) {
                        out.write(reply);
                    }
                }
            });
            server.start();
            System.out.println("customer receiver listening on [::]:" + port);
        }
    }

    /**
     * One recorded request.
     *
     * @param peer      the source address the customer saw
     * @param localPort the receiver port it arrived on
     * @param path       the request path
     * @param receivedAt when the receiver read it (same host clock as the test's)
     * @param body       the body (new lines flattened)
     */
    record Request(InetAddress peer, int localPort, String path, Instant receivedAt, String body) {}

    /**
     * Reads the records written so far; a line still being written is skipped.
     *
     * @param records the record file
     * @return the requests, in arrival order
     */
    static List<Request> read(Path records) {
        String text;
        try {
            text = Files.exists(records) ? Files.readString(records) : "";
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + records, e);
        }
        List<Request> requests = new ArrayList<>();
        int start = 0;
        for (int end = text.indexOf('\n'); end >= 0; start = end + 1, end = text.indexOf('\n', start)) {
            String[] f = text.substring(start, end).split("\t", 5);
            if (f.length == 5) {
                try {
                    // A literal: getByName parses it without any lookup.
                    requests.add(new Request(
                            InetAddress.getByName(f[0]),
                            Integer.parseInt(f[1]),
                            f[2],
                            Instant.ofEpochMilli(Long.parseLong(f[3])),
                            f[4]));
                } catch (IOException e) {
                    throw new IllegalStateException("bad record: " + f[0], e);
                }
            }
        }
        return requests;
    }
}
