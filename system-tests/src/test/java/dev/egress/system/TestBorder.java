package dev.egress.system;

import static org.awaitility.Awaitility.await;

import dev.egress.ydb.coordination.testing.ListenPorts;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One real Border process for the tests that run App in-process beside it ({@link FleetIT},
 * {@link TrustChainIT}): the Border's arguments, its port and its readiness probe. The process itself is
 * a {@link ServiceProcess}; output goes to {@code <egress.logs>/<id>.log}.
 */
final class TestBorder implements AutoCloseable {

    /** Operator token of every test Border. */
    static final String OPERATOR_TOKEN = "test-operator-token";

    private final String id;
    private final int port;
    private final ServiceProcess process;
    private final String scheme;
    private final HttpClient http;

    private TestBorder(String id, int port, ServiceProcess process, TestTrust trust) {
        this.id = id;
        this.port = port;
        this.process = process;
        this.scheme = trust == null ? "http" : "https";
        this.http = trust == null
                ? HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build()
                : trust.operatorClient();
    }

    /**
     * Starts a Border in {@code insecure-local} mode.
     *
     * @param id               Border id
     * @param ips              its dedicated IPs
     * @param connectionString the coordination node
     * @param internalToken    the token App presents
     * @return the started (not yet ready) Border
     */
    static TestBorder start(String id, List<String> ips, String connectionString, String internalToken) {
        return start(id, ips, connectionString, internalToken, null);
    }

    /**
     * Starts a Border on the trust chain (its own identity from {@code trust}, TLS, signed announcements),
     * or in {@code insecure-local} mode when {@code trust} is null.
     *
     * @param id               Border id
     * @param ips              its dedicated IPs
     * @param connectionString the coordination node
     * @param internalToken    the token App presents
     * @param trust            the PKI, or null for insecure-local
     * @return the started (not yet ready) Border
     */
    static TestBorder start(
            String id, List<String> ips, String connectionString, String internalToken, TestTrust trust) {
        return start(id, ips, ips, connectionString, internalToken, trust);
    }

    /**
     * Starts a Border on the trust chain whose certificate authorises other IPs than it announces (an
     * attacker holding a real credential), or in {@code insecure-local} mode when {@code trust} is null.
     *
     * @param id               Border id
     * @param ips              the IPs it binds and announces
     * @param certifiedIps     the IPs its certificate names (IP SANs)
     * @param connectionString the coordination node
     * @param internalToken    the token App presents
     * @param trust            the PKI, or null for insecure-local
     * @return the started (not yet ready) Border
     */
    static TestBorder start(
            String id,
            List<String> ips,
            List<String> certifiedIps,
            String connectionString,
            String internalToken,
            TestTrust trust) {
        int port = ListenPorts.freeOutsideEphemeralRange();
        List<String> args = new ArrayList<>(List.of(
                "--server.port=" + port,
                "--egress.border.id=" + id,
                "--egress.border.ips=" + String.join(",", ips),
                "--egress.border.allow-loopback-ips=true",
                "--egress.border.advertised-url=" + (trust == null ? "http" : "https") + "://127.0.0.1:" + port,
                "--egress.border.drain-timeout=5s",
                "--egress.security.internal-token=" + internalToken,
                "--egress.security.operator-token=" + OPERATOR_TOKEN,
                "--egress.ssrf.allowed-ranges=127.0.0.1/32:1024-65535",
                "--egress.tunnel.allowed-ports=1024-65535",
                "--egress.registry.connection-string=" + connectionString,
                "--egress.registry.session-timeout=3s"));
        if (trust == null) {
            args.add("--egress.security.insecure-local=true");
        } else {
            args.addAll(trust.borderArgs(id, certifiedIps));
        }
        Path logs = Path.of(System.getProperty("egress.logs", "target/system-logs"));
        return new TestBorder(id, port, ServiceProcess.start(id, Platform.jar("border"), args, logs), trust);
    }

    /**
     * Whether the Border reports ready (IPs bound and registered).
     *
     * @return true when readiness answers 200
     */
    boolean ready() {
        try {
            HttpRequest probe = HttpRequest.newBuilder(
                            URI.create(scheme + "://127.0.0.1:" + port + "/actuator/health/readiness"))
                    .timeout(Duration.ofSeconds(5))
                    .build();
            return http.send(probe, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Waits, up to three minutes (Borders boot in parallel on shared cores), until the Border is ready
     * or its process has exited.
     *
     * @return whether it is ready
     */
    boolean awaitReadyOrExit() {
        await().atMost(Duration.ofMinutes(3))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> ready() || !process.isAlive());
        return ready();
    }

    int port() {
        return port;
    }

    /**
     * Sets an IP's status through this Border's operator API.
     *
     * @param ip     a hosted IP
     * @param status {@code ACTIVE}, {@code DRAINING} or {@code DISABLED}
     * @return the HTTP status of the answer
     */
    int setStatus(String ip, String status) {
        try {
            HttpRequest put = HttpRequest.newBuilder(URI.create(scheme + "://127.0.0.1:" + port + "/ops/v1/ips/" + ip))
                    .header("Authorization", "Bearer " + OPERATOR_TOKEN)
                    .header("Content-Type", "application/json")
                    .timeout(Duration.ofSeconds(30))
                    .PUT(HttpRequest.BodyPublishers.ofString("{\"status\":\"" + status + "\"}"))
                    .build();
            return http.send(put, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            throw new IllegalStateException("operator API of " + id + " did not answer", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    String id() {
        return id;
    }

    /** Freezes the process (SIGSTOP): a Border hung mid-request, see {@link ServiceProcess#freeze()}. */
    void freeze() {
        process.freeze();
    }

    /** Kills the process at once (SIGKILL) and waits for it to end: its slot stays until the session times out. */
    void kill() {
        process.kill();
        process.awaitExit(Duration.ofSeconds(30));
    }

    @Override
    public void close() {
        process.close();
    }
}
