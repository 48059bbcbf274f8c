import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A demo webhook receiver for local runs: accepts any request on any path, answers 200 with a small
 * JSON body, and prints one line per delivery with the source address it arrived from, so you can see
 * which dedicated IP a Border used.
 *
 * <p>Run with the JDK's single-file source launcher, no build needed:
 * {@code java local/DemoSink.java [port] [bind-address]} (defaults {@code 9999 127.0.0.1}).
 *
 * <p>Output format (one line per request; {@code run-local.sh --smoke} parses it):
 * {@code delivery #<n> from <ip>:<port> <METHOD> <path> <bytes> bytes <ISO-8601 time>} followed by
 * the body, indented and cut at 500 characters.
 */
public final class DemoSink {

    private static final int MAX_PRINTED_BODY = 500;

    private DemoSink() {
    }

    /**
     * Starts the sink and serves until the process is stopped.
     *
     * @param args optional {@code port} (default 9999) and {@code bind-address} (default 127.0.0.1)
     * @throws IOException if the port cannot be bound
     */
    public static void main(String[] args) throws IOException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 9999;
        InetAddress bind = InetAddress.getByName(args.length > 1 ? args[1] : "127.0.0.1");
        AtomicLong deliveries = new AtomicLong();

        HttpServer server = HttpServer.create(new InetSocketAddress(bind, port), 128);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/", exchange -> handle(exchange, deliveries.incrementAndGet()));
        // The JVM runs shutdown hooks on SIGTERM/SIGINT: stop accepting, let in-flight exchanges finish.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> server.stop(1), "sink-shutdown"));
        server.start();
        System.out.printf("Demo sink listening on http://%s:%d/ (prints every delivery with its source IP)%n",
                bind.getHostAddress(), port);
    }

    private static void handle(HttpExchange exchange, long n) throws IOException {
        try (exchange; InputStream in = exchange.getRequestBody()) {
            byte[] body = in.readAllBytes();
            InetSocketAddress from = exchange.getRemoteAddress();
            String path = exchange.getRequestURI().getRawPath();
            StringBuilder line = new StringBuilder()
                    .append("delivery #").append(n)
                    .append(" from ").append(from.getAddress().getHostAddress()).append(':').append(from.getPort())
                    .append(' ').append(exchange.getRequestMethod())
                    .append(' ').append(path)
                    .append(' ').append(body.length).append(" bytes ")
                    .append(Instant.now());
            if (body.length > 0) {
                String text = new String(body, StandardCharsets.UTF_8);
                if (text.length() > MAX_PRINTED_BODY) {
                    text = text.substring(0, MAX_PRINTED_BODY) + "...";
                }
                line.append(System.lineSeparator()).append("    ").append(text.replace("\n", "\n    "));
            }
            System.out.println(line);

            byte[] answer = ("{\"received\":" + n + "}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
        }
    }
}
