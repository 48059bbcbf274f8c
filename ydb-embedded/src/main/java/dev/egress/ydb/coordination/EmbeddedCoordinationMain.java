package dev.egress.ydb.coordination;

import dev.egress.ydb.query.TableOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;

/**
 * Command-line entry point: {@code java -jar ydb-embedded.jar [--host H] [--port N] [--database /path]
 * [--token-file F] [--tls-cert F --tls-key F] [--data-dir D] [--ttl-period-ms N] [--metrics-port N]}.
 * Serves until SIGTERM/SIGINT, then stops cleanly through a shutdown hook.
 */
public final class EmbeddedCoordinationMain {

    private EmbeddedCoordinationMain() {}

    /**
     * Starts the node and blocks until the JVM is asked to stop.
     *
     * @param args {@code --port N} (default 2136), {@code --database /path} (default /local),
     *             {@code --host H} (default 127.0.0.1), {@code --token-file F} (accepted access tokens, one
     *             per line; default: anonymous), {@code --tls-cert F} and {@code --tls-key F} (PEM chain
     *             and PKCS#8 key: serve grpcs), {@code --data-dir D} (keep tables on disk; default: in memory),
     *             {@code --ttl-period-ms N} (TTL sweep period, default 1000), {@code --compact-bytes N} (log size that
     *             triggers a snapshot, default 64 MiB), {@code --metrics-port N} (HTTP
     *             {@code /metrics} and {@code /healthz} on the same host; default: none); {@code --name=value} is
     *             accepted too
     * @throws InterruptedException if interrupted while waiting for the stop
     */
    public static void main(String[] args) throws InterruptedException {
        // Not named logback.xml: this jar is also a library and must not configure its users' logging.
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", "ydb-embedded-logback.xml");
        }
        String host = EmbeddedCoordinationNode.DEFAULT_HOST;
        int port = 2136;
        String database = EmbeddedCoordinationNode.DEFAULT_DATABASE;
        Set<String> tokens = Set.of();
        Path tlsCert = null;
        Path tlsKey = null;
        TableOptions tables = TableOptions.IN_MEMORY;
        int metricsPort = -1;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String name = arg;
            String value;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                name = arg.substring(0, eq);
                value = arg.substring(eq + 1);
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                throw usage("missing value for " + arg);
            }
            switch (name) {
                case "--port" -> port = parsePort(value);
                case "--database" -> database = value;
                case "--host" -> host = value;
                case "--token-file" -> tokens = readTokens(value);
                case "--tls-cert" -> tlsCert = Path.of(value);
                case "--tls-key" -> tlsKey = Path.of(value);
                case "--data-dir" -> tables = tables.withDataDir(Path.of(value));
                case "--ttl-period-ms" -> tables = tables.withTtlPeriod(Duration.ofMillis(parsePort(value)));
                case "--metrics-port" -> metricsPort = parsePort(value);
                case "--compact-bytes" -> tables = tables.withCompactBytes(Long.parseLong(value));
                default -> throw usage("unknown option " + name);
            }
        }
        NodeAccess access;
        try {
            access = new NodeAccess(tokens, tlsCert, tlsKey);
        } catch (IllegalArgumentException e) {
            throw usage("--tls-cert and --tls-key go together");
        }
        EmbeddedCoordinationNode node = EmbeddedCoordinationNode.start(host, port, database, access, tables);
        MetricsEndpoint metrics = metricsPort < 0 ? null : MetricsEndpoint.start(host, metricsPort, node);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            if (metrics != null) {
                                metrics.close();
                            }
                            node.close();
                            stopped.countDown();
                        },
                        "coordination-shutdown"));
        // The log line "Embedded coordination node ready at grpc://..." has been written by start().
        stopped.await();
    }

    private static int parsePort(String value) {
        try {
            int port = Integer.parseInt(value);
            if (port < 0 || port > 65535) {
                throw usage("port: " + value + " (expected: 0..65535)");
            }
            return port;
        } catch (NumberFormatException e) {
            throw usage("port: " + value + " (expected: a number)");
        }
    }

    private static Set<String> readTokens(String file) {
        try {
            Set<String> tokens = Files.readAllLines(Path.of(file)).stream()
                    .map(String::strip)
                    .filter(t -> !t.isEmpty())
                    .collect(Collectors.toUnmodifiableSet());
            if (tokens.isEmpty()) {
                throw usage("--token-file " + file + ": no token in it");
            }
            return tokens;
        } catch (IOException e) {
            throw usage("--token-file " + file + ": " + e.getMessage());
        }
    }

    private static IllegalArgumentException usage(String problem) {
        return new IllegalArgumentException(problem
                + "; usage: java -jar ydb-embedded.jar [--host 127.0.0.1] [--port 2136] [--database /local]"
                + " [--token-file F] [--tls-cert F --tls-key F] [--data-dir D] [--ttl-period-ms N]"
                + " [--metrics-port N]");
    }
}
