package dev.egress.system;

import static org.awaitility.Awaitility.await;

import dev.egress.discovery.trust.testing.TestPki;
import dev.egress.ydb.coordination.testing.ListenPorts;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;

/**
 * The whole platform as real processes on loopback: the embedded coordination node, Borders, Apps and a
 * tenants file, laid out by a {@link Layout}. The default layout is three Borders and two Apps; {@link Layout#LOCAL} is {@code ./run-local.sh}'s. Ports are picked free at
 * start; the coordination node keeps its port across restarts, as a restarted YDB would. Everything runs
 * on the trust chain: a throwaway Border CA and App CA (keytool), Borders on https signing their
 * announcements, Apps calling them over mutual TLS. The test's own HTTP client presents an App
 * certificate, so it meets the Borders' doors as App does.
 */
final class Platform implements AutoCloseable {

    /**
     * What to start.
     *
     * @param borders    Border id → its dedicated IPs
     * @param tenants    the tenants file
     * @param apps       how many Apps
     * @param borderArgs more {@code --name=value} arguments for every Border
     * @param appArgs    more {@code --name=value} arguments for every App; {@code {node}} stands for the node's
     *                   connection string
     */
    record Layout(
            Map<String, List<String>> borders,
            String tenants,
            int apps,
            List<String> borderArgs,
            List<String> appArgs) {

        Layout {
            borderArgs = List.copyOf(borderArgs);
            appArgs = List.copyOf(appArgs);
        }

        Layout(Map<String, List<String>> borders, String tenants, int apps) {
            this(borders, tenants, apps, List.of(), List.of());
        }

        /** {@code ./run-local.sh}'s layout: border-a .2/.3, border-b .4/.5, acme on .3/.4, small-co on .2/.5. */
        static final Layout LOCAL = new Layout(
                orderedMap(
                        "border-a", List.of("127.0.0.2", "127.0.0.3"), "border-b", List.of("127.0.0.4", "127.0.0.5")),
                """
                sharedPool: [127.0.0.2, 127.0.0.5]
                tenants:
                  - id: acme
                    dedicatedIps: [127.0.0.3, 127.0.0.4]
                  - id: small-co
                """,
                1);
    }

    static final String API_TOKEN = "system-api-token";
    static final String INTERNAL_TOKEN = "system-internal-token";
    static final String OPERATOR_TOKEN = "system-operator-token";
    static final Duration SESSION_TIMEOUT = Duration.ofSeconds(2);
    static final Duration POLL_INTERVAL = Duration.ofMillis(500);
    static final Duration MAX_STALENESS = Duration.ofSeconds(10);

    /** Border id → its dedicated IPs. */
    static final Map<String, List<String>> BORDERS = new LinkedHashMap<>();

    static {
        BORDERS.put("border-a", List.of("127.0.0.2", "127.0.0.3"));
        // Each dedicated IP on one Border: a dedicated IP announced ACTIVE by two Borders fails closed.
        BORDERS.put("border-b", List.of("127.0.0.4"));
        BORDERS.put("border-c", List.of("127.0.0.5", "127.0.0.6"));
    }

    /** The fault tests' layout: {@link #BORDERS}, acme on {@link #ACME_IPS}, small-co on {@link #SHARED_IPS}, two Apps. */
    static final Layout FAULTS = new Layout(BORDERS, """
            sharedPool: [127.0.0.2, 127.0.0.4, 127.0.0.6]
            tenants:
              - id: acme
                dedicatedIps: [127.0.0.3, 127.0.0.5]
              - id: small-co
            """, 2);

    /** The dedicated tenant's IPs, on two Borders (border-a and border-c), one each. */
    static final Set<String> ACME_IPS = Set.of("127.0.0.3", "127.0.0.5");
    /** The shared pool. */
    static final Set<String> SHARED_IPS = Set.of("127.0.0.2", "127.0.0.4", "127.0.0.6");

    final TestPki borderCa = TestPki.create("system Border CA");
    final TestPki appCa = TestPki.create("system App CA");
    final TestPki.Issued appIdentity = appCa.app("app");
    final Http http = new Http(TestPki.context(appCa.app("system-test"), borderCa.caPem()));
    final Layout layout;
    final Path logs;
    final int coordinationPort;
    final Map<String, Integer> borderPorts = new LinkedHashMap<>();
    final List<Integer> appPorts = new ArrayList<>();
    ServiceProcess coordination;
    final Map<String, ServiceProcess> borders = new LinkedHashMap<>();
    final List<ServiceProcess> apps = new ArrayList<>();

    private final List<String> nodeArgs;

    private Platform(Layout layout, Path logs, List<String> nodeArgs) {
        this.layout = layout;
        this.logs = logs;
        this.nodeArgs = List.copyOf(nodeArgs);
        this.coordinationPort = freePort();
    }

    static Platform start() throws IOException {
        return start(FAULTS);
    }

    static Platform start(Layout layout) throws IOException {
        return start(layout, List.of());
    }

    /**
     * Starts a layout with more arguments for the YDB node, e.g. {@code --data-dir=DIR} for tables that outlive it.
     *
     * @param layout   what to start
     * @param nodeArgs more node arguments
     * @return the running platform
     * @throws IOException if the logs directory cannot be made
     */
    static Platform start(Layout layout, List<String> nodeArgs) throws IOException {
        Path logs = Path.of(System.getProperty("egress.logs", "target/system-logs"));
        Files.createDirectories(logs);
        Platform platform = new Platform(layout, logs, nodeArgs);
        platform.launch();
        return platform;
    }

    private void launch() throws IOException {
        coordination = ServiceProcess.start(
                "coordination",
                jar("coordination"),
                concat(List.of("--port", String.valueOf(coordinationPort), "--database", "/local"), nodeArgs),
                logs);
        await("coordination node listening")
                .atMost(Duration.ofSeconds(60))
                .until(() -> coordination.logText().contains("grpc://127.0.0.1:" + coordinationPort + "/local"));
        Path tenants = logs.resolve("tenants.yaml");
        Files.writeString(tenants, layout.tenants());
        for (Map.Entry<String, List<String>> border : layout.borders().entrySet()) {
            int port = freePort();
            borderPorts.put(border.getKey(), port);
            borders.put(
                    border.getKey(),
                    ServiceProcess.start(
                            border.getKey(),
                            jar("border"),
                            borderArgs(border.getKey(), border.getValue(), port),
                            logs));
        }
        for (int i = 0; i < layout.apps(); i++) {
            int port = freePort();
            appPorts.add(port);
            apps.add(ServiceProcess.start("app-" + i, jar("app"), appArgs(port, tenants), logs));
        }
        for (String border : borders.keySet()) {
            awaitBorderReady(border);
        }
        for (int i = 0; i < apps.size(); i++) {
            int app = i;
            await("app-" + i + " ready")
                    .atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> http.get(appUri(app, "/actuator/health/readiness"), null)
                            .ok());
            await("app-" + i + " sees all borders")
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> liveBorders(app)
                            .equals(new TreeSet<>(layout.borders().keySet())));
        }
    }

    private List<String> borderArgs(String id, List<String> ips, int port) {
        // The certificate authorises exactly the IPs this Border announces (IP SANs).
        TestPki.Issued identity = borderCa.border(id, ips);
        List<String> args = new ArrayList<>(List.of(
                "--server.port=" + port,
                "--egress.border.id=" + id,
                "--egress.border.ips=" + String.join(",", ips),
                "--egress.border.allow-loopback-ips=true",
                "--egress.border.advertised-url=https://127.0.0.1:" + port,
                "--egress.border.drain-timeout=10s",
                "--egress.trust.certificate=" + identity.certificate(),
                "--egress.trust.private-key=" + identity.privateKey(),
                "--egress.trust.app-ca=" + appCa.caPem(),
                "--egress.security.internal-token=" + INTERNAL_TOKEN,
                "--egress.security.operator-token=" + OPERATOR_TOKEN,
                "--egress.ssrf.allowed-ranges=127.0.0.1/32:1024-65535",
                "--egress.tunnel.allowed-ports=1024-65535",
                "--egress.registry.connection-string=" + connectionString(),
                "--egress.registry.session-timeout=" + SESSION_TIMEOUT.toMillis() + "ms"));
        return merged(args, layout.borderArgs());
    }

    private List<String> appArgs(int port, Path tenants) {
        List<String> args = new ArrayList<>(List.of(
                "--server.port=" + port,
                "--egress.security.api-tokens=" + API_TOKEN,
                "--egress.security.internal-token=" + INTERNAL_TOKEN,
                "--egress.security.operator-token=" + OPERATOR_TOKEN,
                "--egress.tenants.file=" + tenants.toAbsolutePath(),
                "--egress.trust.certificate=" + appIdentity.certificate(),
                "--egress.trust.private-key=" + appIdentity.privateKey(),
                "--egress.trust.border-ca=" + borderCa.caPem(),
                "--egress.routing.max-staleness=" + MAX_STALENESS.toMillis() + "ms",
                "--egress.routing.poll-interval=" + POLL_INTERVAL.toMillis() + "ms",
                "--egress.registry.connection-string=" + connectionString(),
                "--egress.registry.session-timeout=" + SESSION_TIMEOUT.toMillis() + "ms"));
        // {node} in a layout's App arguments stands for the node's connection string, known only now.
        List<String> overrides = layout.appArgs().stream()
                .map(arg -> arg.replace("{node}", connectionString()))
                .toList();
        return merged(args, overrides);
    }

    /**
     * The defaults with a layout's arguments after them; a layout argument replaces the default of the same
     * property, and {@code --x-file=} replaces {@code --x=} (a token given as a file instead: both at once
     * are refused by the services).
     */
    private static List<String> concat(List<String> first, List<String> second) {
        List<String> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }

    private static List<String> merged(List<String> defaults, List<String> overrides) {
        Set<String> replaced = new TreeSet<>();
        for (String override : overrides) {
            String name = override.substring(0, Math.max(override.indexOf('='), 0));
            replaced.add(name);
            if (name.endsWith("-file")) {
                replaced.add(name.substring(0, name.length() - "-file".length()));
            }
        }
        List<String> args = new ArrayList<>(defaults);
        args.removeIf(arg -> replaced.contains(arg.substring(0, Math.max(arg.indexOf('='), 0))));
        args.addAll(overrides);
        return args;
    }

    String connectionString() {
        return "grpc://127.0.0.1:" + coordinationPort + "/local";
    }

    void awaitBorderReady(String border) {
        await(border + " ready")
                .atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> http.get(borderUri(border, "/actuator/health/readiness"), null)
                        .ok());
    }

    URI appUri(int app, String path) {
        return URI.create("http://127.0.0.1:" + appPorts.get(app) + path);
    }

    URI borderUri(String border, String path) {
        return URI.create("https://127.0.0.1:" + borderPorts.get(border) + path);
    }

    /**
     * The Borders an App currently routes to, from its status API.
     *
     * @param app App index
     * @return Border ids with at least one IP in the App's snapshot
     */
    Set<String> liveBorders(int app) {
        Set<String> live = new TreeSet<>();
        JsonNode ips = http.get(appUri(app, "/v1/egress/ips"), API_TOKEN).json();
        if (ips == null || !ips.has("ips")) {
            return live;
        }
        for (JsonNode ip : ips.get("ips")) {
            for (JsonNode border : ip.get("borders")) {
                live.add(border.get("id").asString());
            }
        }
        return live;
    }

    /**
     * How old an App's snapshot is: time since the registry last confirmed it.
     *
     * @return age in ms, or {@link Long#MAX_VALUE} if the App did not answer
     */
    long snapshotAgeMillis(int app) {
        JsonNode ips = http.get(appUri(app, "/v1/egress/ips"), API_TOKEN).json();
        return ips == null || !ips.has("ageMillis")
                ? Long.MAX_VALUE
                : ips.get("ageMillis").asLong();
    }

    /**
     * One Border's status for one IP as an App sees it.
     *
     * @return the status, or null if the App does not see that pair
     */
    String statusSeenByApp(int app, String ip, String border) {
        JsonNode ips = http.get(appUri(app, "/v1/egress/ips"), API_TOKEN).json();
        if (ips == null || !ips.has("ips")) {
            return null;
        }
        for (JsonNode entry : ips.get("ips")) {
            if (entry.get("ip").asString().equals(ip)) {
                for (JsonNode b : entry.get("borders")) {
                    if (b.get("id").asString().equals(border)) {
                        return b.get("status").asString();
                    }
                }
            }
        }
        return null;
    }

    private static Map<String, List<String>> orderedMap(String k1, List<String> v1, String k2, List<String> v2) {
        Map<String, List<String>> map = new LinkedHashMap<>();
        map.put(k1, v1);
        map.put(k2, v2);
        return map;
    }

    /**
     * A service's fat jar, as the build passes it ({@code egress.jar.<which>}).
     *
     * @param which {@code border}, {@code app} or {@code coordination}
     * @return the jar
     * @throws IllegalStateException if it was not built
     */
    static Path jar(String which) {
        Path jar = Path.of(System.getProperty("egress.jar." + which, "missing"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("jar for " + which + " not built: " + jar);
        }
        return jar;
    }

    private static int freePort() {
        return ListenPorts.freeOutsideEphemeralRange();
    }

    @Override
    public void close() {
        apps.forEach(ServiceProcess::close);
        borders.values().forEach(ServiceProcess::close);
        if (coordination != null) {
            coordination.close();
        }
    }
}
