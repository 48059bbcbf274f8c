import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A demo webhook receiver for local runs: accepts any request on any path, answers 200 with a small
 * JSON body, and prints one line per delivery with the source address it arrived from, so you can see
 * which dedicated IP a Border used.
 *
 * <p>Run with the JDK's single-file source launcher, no build needed:
 * {@code java local/DemoSink.java [--fail-first N] [--fail-path PREFIX] [port] [bind-address]} (defaults: no
 * failures, {@code 9999}, {@code 127.0.0.1}).
 * {@code --fail-first N} (or the environment variable {@code DEMO_SINK_FAIL_FIRST=N}; the option wins) answers
 * the first N requests {@code 503 Service Unavailable}, so that a durable delivery's retry is visible: the webhook
 * arrives again on the retry schedule, with the same {@code webhook-id}. They are counted over all paths, or with
 * {@code --fail-path PREFIX} ({@code DEMO_SINK_FAIL_PATH}) over the paths that start with it only, so that other
 * webhooks (a stored one of an earlier run, retried now) neither fail nor use up the failures.
 *
 * <p>Output format (one entry per request; {@code run-local.sh --smoke} parses it):
 * {@code delivery #<n> from <ip>:<port> <METHOD> <path> <bytes> bytes <ISO-8601 time> -> <status>}, then the
 * Standard Webhooks headers a signing tenant's webhook carries ({@code webhook-id: ...}, {@code webhook-timestamp:
 * ...}, {@code webhook-signature: ...}), one a line, and the body, each indented by four spaces; the body is cut at
 * 500 characters. An entry is printed in one write, so entries of concurrent requests do not interleave.
 */
public final class DemoSink {

    private static final int MAX_PRINTED_BODY = 500;
    private static final List<String> WEBHOOK_HEADERS = List.of("webhook-id", "webhook-timestamp", "webhook-signature");

    private DemoSink() {
    }

    /**
     * Starts the sink and serves until the process is stopped.
     *
     * @param args optional {@code --fail-first N}, then {@code port} (default 9999) and {@code bind-address}
     *             (default 127.0.0.1)
     * @throws IOException if the port cannot be bound
     */
    public static void main(String[] args) throws IOException {
        long failFirst = parseCount(System.getenv().getOrDefault("DEMO_SINK_FAIL_FIRST", "0"), "DEMO_SINK_FAIL_FIRST");
        String failPath = System.getenv().getOrDefault("DEMO_SINK_FAIL_PATH", "");
        List<String> positional = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--fail-first")) {
                if (i + 1 == args.length) {
                    throw new IllegalArgumentException("--fail-first: missing N (expected: a count >= 0)");
                }
                failFirst = parseCount(args[++i], "--fail-first");
            } else if (args[i].equals("--fail-path")) {
                if (i + 1 == args.length) {
                    throw new IllegalArgumentException("--fail-path: missing PREFIX (expected: a path prefix)");
                }
                failPath = args[++i];
            } else {
                positional.add(args[i]);
            }
        }
        int port = positional.size() > 0 ? Integer.parseInt(positional.get(0)) : 9999;
        InetAddress bind = InetAddress.getByName(positional.size() > 1 ? positional.get(1) : "127.0.0.1");
        AtomicLong deliveries = new AtomicLong();
        AtomicLong matching = new AtomicLong();
        long failing = failFirst;
        String failingPath = failPath;

        HttpServer server = HttpServer.create(new InetSocketAddress(bind, port), 128);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/", exchange -> {
            long n = deliveries.incrementAndGet();
            boolean counted = exchange.getRequestURI().getRawPath().startsWith(failingPath);
            handle(exchange, n, counted && matching.incrementAndGet() <= failing ? 503 : 200);
        });
        // The JVM runs shutdown hooks on SIGTERM/SIGINT: stop accepting, let in-flight exchanges finish.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> server.stop(1), "sink-shutdown"));
        server.start();
        System.out.printf("Demo sink listening on http://%s:%d/ (prints every delivery with its source IP)%n",
                bind.getHostAddress(), port);
        if (failFirst > 0) {
            System.out.printf("Demo sink answers the first %d request(s)%s 503 Service Unavailable%n",
                    failFirst, failPath.isEmpty() ? "" : " to paths starting with " + failPath);
        }
    }

    private static long parseCount(String text, String name) {
        try {
            long count = Long.parseLong(text.trim());
            if (count >= 0) {
                return count;
            }
        } catch (NumberFormatException e) {
            // reported below, with the rule
        }
        throw new IllegalArgumentException("%s: '%s' (expected: a count >= 0)".formatted(name, text));
    }

    private static void handle(HttpExchange exchange, long n, int status) throws IOException {
        try (exchange; InputStream in = exchange.getRequestBody()) {
            byte[] body = in.readAllBytes();
            InetSocketAddress from = exchange.getRemoteAddress();
            String path = exchange.getRequestURI().getRawPath();
            StringBuilder entry = new StringBuilder()
                    .append("delivery #").append(n)
                    .append(" from ").append(from.getAddress().getHostAddress()).append(':').append(from.getPort())
                    .append(' ').append(exchange.getRequestMethod())
                    .append(' ').append(path)
                    .append(' ').append(body.length).append(" bytes ")
                    .append(Instant.now())
                    .append(" -> ").append(status);
            for (String name : WEBHOOK_HEADERS) {
                List<String> values = exchange.getRequestHeaders().get(name); // names are case-insensitive
                if (values != null) {
                    entry.append(System.lineSeparator()).append("    ").append(name).append(": ")
                            .append(String.join(",", values));
                }
            }
            if (body.length > 0) {
                String text = new String(body, StandardCharsets.UTF_8);
                if (text.length() > MAX_PRINTED_BODY) {
                    text = text.substring(0, MAX_PRINTED_BODY) + "...";
                }
                entry.append(System.lineSeparator()).append("    ").append(text.replace("\n", "\n    "));
            }
            System.out.println(entry);

            byte[] answer = (status == 200 ? "{\"received\":" + n + "}" : "{\"failing\":" + n + "}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
        }
    }
}
