package dev.egress.system;

import static org.awaitility.Awaitility.await;

import dev.egress.discovery.web.testing.RecordingSink;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
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
 * The platform on {@link NetworkTopology}'s private network, each service in its host's namespace
 * ({@code ip netns exec <ns> java -jar ...}): the coordination node on {@code registry}, two Borders
 * with two dedicated IPs each (border-b: one IPv4, one IPv6, and reached by App over IPv6), two Apps
 * on {@code app} (each with its forward proxy on), the customer's
 * receiver on {@code customer} behind an nftables allowlist of acme's IPs.
 *
 * <p>All launch configuration is in this class ({@link #borderArgs}, {@link #appArgs},
 * {@link #registryArgs}): switching the platform to its secure transport later is a change here only.
 * Ports are fixed: each namespace has its own port space, so nothing can collide.
 */
final class NetworkPlatform implements AutoCloseable {

    static final String V4 = NetworkTopology.V4;
    static final String V6 = NetworkTopology.V6;

    static final String REGISTRY = V4 + "2";
    static final String APP = V4 + "3";
    static final String BORDER_A = V4 + "10";
    /** border-b is reached over IPv6: its listening socket and advertised URL use a bracketed literal. */
    static final String BORDER_B = V6 + "20";

    static final String CUSTOMER_V4 = V4 + "30";
    static final String CUSTOMER_V6 = V6 + "30";
    static final String ACME_V4 = V4 + "11";
    static final String ACME_V6 = V6 + "21";
    static final String SHARED_A = V4 + "12";
    static final String SHARED_B = V4 + "22";
    static final Set<String> ACME_IPS = Set.of(ACME_V4, ACME_V6);
    static final Set<String> SHARED_IPS = Set.of(SHARED_A, SHARED_B);
    static final Map<String, List<String>> BORDER_IPS = Map.of(
            "border-a", List.of(ACME_V4, SHARED_A),
            "border-b", List.of(ACME_V6, SHARED_B));

    static final int REGISTRY_PORT = 2236;
    static final int BORDER_PORT = 8281;
    static final List<Integer> APP_PORTS = List.of(8280, 8290);
    /** Each App's forward-proxy listener ({@code egress.proxy.*}), on App's service address. */
    static final List<Integer> PROXY_PORTS = List.of(3128, 3138);
    /** acme's endpoint: the customer's firewall admits only acme's dedicated IPs here. */
    static final int ACME_HOOK_PORT = 8088;
    /** small-co's endpoint on the same machine, not firewalled. */
    static final int OPEN_HOOK_PORT = 8089;
    /** Resolves to the customer's IPv4 and IPv6 address (a hosts file given to the Borders). */
    static final String CUSTOMER_NAME = "customer.test";

    static final String FIREWALL_TABLE = "webhook";

    static final Duration SESSION_TIMEOUT = Duration.ofSeconds(3);
    static final Duration POLL_INTERVAL = Duration.ofMillis(500);
    static final Duration MAX_STALENESS = Duration.ofSeconds(6);
    /** App's HTTP/2 liveness (its defaults, named here so the partition scenario can state its bound). */
    static final Duration PING_INTERVAL = Duration.ofMillis(250);

    static final Duration PING_TIMEOUT = Duration.ofMillis(750);

    final NetworkTopology net;
    final Http http = new Http();
    final Path logs;
    final Path records;
    ServiceProcess registry;
    final Map<String, ServiceProcess> borders = new LinkedHashMap<>();
    final List<ServiceProcess> apps = new ArrayList<>();
    ServiceProcess receiver;

    private NetworkPlatform(NetworkTopology net, Path logs) {
        this.net = net;
        this.logs = logs;
        this.records = logs.resolve("customer-records.tsv");
    }

    /** The hosts and their addresses; the first address of each is its service address. */
    static Map<String, List<String>> hosts() {
        Map<String, List<String>> hosts = new LinkedHashMap<>();
        hosts.put("registry", List.of(REGISTRY));
        hosts.put("app", List.of(APP, V6 + "3"));
        hosts.put("border-a", List.of(BORDER_A, ACME_V4, SHARED_A));
        // A plain IPv4 address too, so border-b's own IPv4 traffic (the registry) does not leave from a dedicated IP.
        hosts.put("border-b", List.of(BORDER_B, V4 + "20", ACME_V6, SHARED_B));
        hosts.put("customer", List.of(CUSTOMER_V4, CUSTOMER_V6));
        return hosts;
    }

    static NetworkPlatform start(NetworkTopology net) throws IOException {
        Path logs =
                Path.of(System.getProperty("egress.logs", "target/system-logs")).resolve("netns");
        Files.createDirectories(logs);
        NetworkPlatform platform = new NetworkPlatform(net, logs);
        try {
            platform.launch();
        } catch (RuntimeException | IOException e) {
            platform.close();
            throw e;
        }
        return platform;
    }

    private void launch() throws IOException {
        Files.deleteIfExists(records);
        Path hostsFile = logs.resolve("hosts");
        String hosts = CUSTOMER_V4 + " " + CUSTOMER_NAME + "\n" + CUSTOMER_V6 + " " + CUSTOMER_NAME + "\n";
        Files.writeString(hostsFile, hosts);
        for (String border : BORDER_IPS.keySet()) {
            // The Border's egress resolver (Netty's, non-blocking) reads /etc/hosts, not jdk.net.hosts.file.
            net.hostsFile(border, "127.0.0.1 localhost\n::1 localhost\n" + hosts);
        }
        Path tenants = logs.resolve("tenants.yaml");
        Files.writeString(tenants, """
                sharedPool: [%s, %s]
                tenants:
                  - id: acme
                    dedicatedIps: [%s, "%s"]
                  - id: small-co
                """.formatted(SHARED_A, SHARED_B, ACME_V4, ACME_V6));
        net.nft("customer", """
                table inet %s {
                  chain in {
                    type filter hook input priority 0; policy accept;
                    tcp dport %d ip saddr %s accept
                    tcp dport %d ip6 saddr %s accept
                    tcp dport %d counter drop
                  }
                }
                """.formatted(
                        FIREWALL_TABLE, ACME_HOOK_PORT, ACME_V4, ACME_HOOK_PORT, ACME_V6, ACME_HOOK_PORT));

        receiver = ServiceProcess.start(
                "customer",
                net.execIn("customer"),
                List.of("-cp", testClasses().toString(), CustomerReceiver.class.getName()),
                List.of(records.toString(), String.valueOf(ACME_HOOK_PORT), String.valueOf(OPEN_HOOK_PORT)),
                logs);
        registry = ServiceProcess.start(
                "registry",
                net.execIn("registry"),
                List.of("-jar", jar("coordination").toString()),
                registryArgs(),
                logs);
        await("coordination node listening")
                .atMost(Duration.ofSeconds(60))
                .until(() -> registry.logText().contains(connectionString()));
        for (String border : BORDER_IPS.keySet()) {
            borders.put(
                    border,
                    ServiceProcess.start(
                            border,
                            net.execIn(border),
                            List.of(
                                    "-Djdk.net.hosts.file=" + hostsFile,
                                    "-jar",
                                    jar("border").toString()),
                            borderArgs(border),
                            logs));
        }
        for (int i = 0; i < APP_PORTS.size(); i++) {
            apps.add(ServiceProcess.start(
                    "app-" + i, net.execIn("app"), List.of("-jar", jar("app").toString()), appArgs(i, tenants), logs));
        }
        await("customer receiver listening")
                .atMost(Duration.ofSeconds(60))
                .until(() -> receiver.logText().contains(":" + OPEN_HOOK_PORT));
        for (String border : borders.keySet()) {
            await(border + " ready")
                    .atMost(Duration.ofSeconds(150))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> http.get(borderUri(border, "/actuator/health/readiness"), null)
                            .ok());
        }
        for (int i = 0; i < apps.size(); i++) {
            int app = i;
            await("app-" + i + " ready")
                    .atMost(Duration.ofSeconds(150))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> http.get(appUri(app, "/actuator/health/readiness"), null)
                            .ok());
        }
        awaitAllRoutable();
    }

    private List<String> registryArgs() {
        return List.of("--host", REGISTRY, "--port", String.valueOf(REGISTRY_PORT), "--database", "/local");
    }

    private List<String> borderArgs(String border) {
        String address = "border-a".equals(border) ? BORDER_A : BORDER_B;
        return List.of(
                "--server.address=" + address,
                "--server.port=" + BORDER_PORT,
                "--egress.border.id=" + border,
                "--egress.border.ips=" + String.join(",", BORDER_IPS.get(border)),
                "--egress.border.advertised-url=" + borderUri(border, ""),
                "--egress.border.drain-timeout=5s",
                // Plaintext and unsigned: this test is about the network; the trust chain has its own tests.
                "--egress.security.insecure-local=true",
                "--egress.security.internal-token=" + Platform.INTERNAL_TOKEN,
                "--egress.security.operator-token=" + Platform.OPERATOR_TOKEN,
                // The customer is an internal target in a documentation/ULA range: allowed as an operator would.
                "--egress.ssrf.allowed-ranges=" + CUSTOMER_V4 + "/32," + CUSTOMER_V6 + "/128",
                "--egress.tunnel.allowed-ports=1024-65535",
                "--egress.limits.connect-timeout=2s",
                "--egress.limits.response-timeout=5s",
                "--egress.limits.call-timeout=7s",
                "--egress.registry.connection-string=" + connectionString(),
                "--egress.registry.session-timeout=" + SESSION_TIMEOUT.toMillis() + "ms");
    }

    private List<String> appArgs(int app, Path tenants) {
        return List.of(
                "--server.address=" + APP,
                "--server.port=" + APP_PORTS.get(app),
                "--egress.proxy.enabled=true",
                "--egress.proxy.allowed-ports=1024-65535",
                "--egress.proxy.address=" + APP,
                "--egress.proxy.port=" + PROXY_PORTS.get(app),
                "--egress.security.api-tokens=" + Platform.API_TOKEN,
                "--egress.security.internal-token=" + Platform.INTERNAL_TOKEN,
                "--egress.security.insecure-local=true",
                "--egress.tenants.file=" + tenants.toAbsolutePath(),
                // Round robin spreads acme over both its IPs, so every scenario exercises IPv4 and IPv6.
                "--egress.routing.strategy=round-robin",
                "--egress.routing.max-staleness=" + MAX_STALENESS.toMillis() + "ms",
                "--egress.routing.poll-interval=" + POLL_INTERVAL.toMillis() + "ms",
                "--egress.routing.recovery-hold=5s",
                "--egress.dispatch.connect-timeout=1s",
                "--egress.dispatch.attempt-timeout=8s",
                "--egress.dispatch.overall-timeout=20s",
                "--egress.dispatch.ping-interval=" + PING_INTERVAL.toMillis() + "ms",
                "--egress.dispatch.ping-timeout=" + PING_TIMEOUT.toMillis() + "ms",
                "--resilience4j.circuitbreaker.configs.default.wait-duration-in-open-state=3s",
                "--egress.registry.connection-string=" + connectionString(),
                "--egress.registry.session-timeout=" + SESSION_TIMEOUT.toMillis() + "ms");
    }

    String connectionString() {
        return "grpc://" + REGISTRY + ":" + REGISTRY_PORT + "/local";
    }

    URI appUri(int app, String path) {
        return URI.create("http://" + APP + ":" + APP_PORTS.get(app) + path);
    }

    URI borderUri(String border, String path) {
        return URI.create(
                "border-a".equals(border)
                        ? "http://" + BORDER_A + ":" + BORDER_PORT + path
                        : "http://[" + BORDER_B + "]:" + BORDER_PORT + path);
    }

    /**
     * An App's forward proxy, as a sender's proxy setting names it.
     *
     * @param app App index
     * @return {@code http://<App's address>:<proxy port>}
     */
    String proxyUrl(int app) {
        return "http://" + APP + ":" + PROXY_PORTS.get(app);
    }

    List<URI> deliveryUris() {
        return List.of(appUri(0, "/v1/deliveries"), appUri(1, "/v1/deliveries"));
    }

    /**
     * The webhook URL of a tenant's customer: acme's is behind the firewall.
     *
     * @param tenant the tenant
     * @return the URL (by name: resolves to the customer's IPv4 and IPv6 address)
     */
    static String hookUrl(String tenant) {
        int port = "acme".equals(tenant) ? ACME_HOOK_PORT : OPEN_HOOK_PORT;
        return "http://" + CUSTOMER_NAME + ":" + port + "/hooks/" + tenant;
    }

    /**
     * What the customer's receiver recorded, in the shape {@link DeliveryLoad} reads.
     *
     * @return every request so far
     */
    List<RecordingSink.Received> received() {
        return CustomerReceiver.read(records).stream()
                .map(r -> new RecordingSink.Received(r.peer(), "POST", r.path(), Map.of(), r.body()))
                .toList();
    }

    List<CustomerReceiver.Request> customerRequests() {
        return CustomerReceiver.read(records);
    }

    DeliveryLoad load(String label, Duration period) {
        return DeliveryLoad.start(http, deliveryUris(), NetworkPlatform::hookUrl, this::received, label, period);
    }

    /** Waits until both Apps route every dedicated and shared IP of both Borders. */
    void awaitAllRoutable() {
        Set<String> all = new TreeSet<>(ACME_IPS);
        all.addAll(SHARED_IPS);
        for (int i = 0; i < apps.size(); i++) {
            int app = i;
            await("app-" + i + " routes every IP")
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> activeIps(app).equals(all));
        }
    }

    /**
     * The IPs an App would route now (ACTIVE on a live Border).
     *
     * @param app App index
     * @return the IPs
     */
    Set<String> activeIps(int app) {
        Set<String> ips = new TreeSet<>();
        JsonNode body =
                http.get(appUri(app, "/v1/egress/ips"), Platform.API_TOKEN).json();
        if (body != null && body.has("ips")) {
            for (JsonNode ip : body.get("ips")) {
                if ("ACTIVE".equals(ip.get("status").asString())) {
                    ips.add(ip.get("ip").asString());
                }
            }
        }
        return ips;
    }

    /**
     * The Borders an App sees in its snapshot.
     *
     * @param app App index
     * @return Border ids
     */
    Set<String> liveBorders(int app) {
        Set<String> live = new TreeSet<>();
        JsonNode body =
                http.get(appUri(app, "/v1/egress/ips"), Platform.API_TOKEN).json();
        if (body != null && body.has("ips")) {
            for (JsonNode ip : body.get("ips")) {
                for (JsonNode border : ip.get("borders")) {
                    live.add(border.get("id").asString());
                }
            }
        }
        return live;
    }

    long snapshotAgeMillis(int app) {
        JsonNode body =
                http.get(appUri(app, "/v1/egress/ips"), Platform.API_TOKEN).json();
        return body == null || !body.has("ageMillis")
                ? Long.MAX_VALUE
                : body.get("ageMillis").asLong();
    }

    private static Path jar(String which) {
        Path jar = Path.of(System.getProperty("egress.jar." + which, "missing"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("jar for " + which + " not built: " + jar);
        }
        return jar.toAbsolutePath();
    }

    private static Path testClasses() {
        try {
            return Path.of(CustomerReceiver.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        apps.forEach(ServiceProcess::close);
        borders.values().forEach(ServiceProcess::close);
        if (registry != null) {
            registry.close();
        }
        if (receiver != null) {
            receiver.close();
        }
    }
}
