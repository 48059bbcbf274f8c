package dev.egress.app.support;

import static org.awaitility.Awaitility.await;

import dev.egress.coordination.testing.ListenPorts;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real border-service (its fat jar) as a process on 127.0.0.1 and an ephemeral port, registering in
 * the given coordination node. Output goes to {@code target/system-it-<id>.log}.
 */
public final class BorderProcess implements AutoCloseable {

    /** Operator token of every test Border. */
    public static final String OPERATOR_TOKEN = "test-operator-token";

    private final String id;
    private final int port;
    private final Process process;
    private final String scheme;
    private final HttpClient http;

    private BorderProcess(String id, int port, Process process, TestTrust trust) {
        this.scheme = trust == null ? "http" : "https";
        this.http = trust == null
                ? HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build()
                : trust.operatorClient();
        this.id = id;
        this.port = port;
        this.process = process;
    }

    /**
     * The border-service fat jar built by the reactor.
     *
     * @return its path
     */
    public static Path jar() {
        return Path.of("..", "border-service", "target", "border-service.jar")
                .toAbsolutePath()
                .normalize();
    }

    /**
     * Starts a Border.
     *
     * @param id               Border id
     * @param ips              its dedicated IPs
     * @param connectionString the coordination node
     * @param internalToken    the token App presents
     * @param extraArgs        more {@code --name=value} arguments
     * @return the started (not yet ready) process
     * @throws IOException if it cannot start
     */
    public static BorderProcess start(
            String id, List<String> ips, String connectionString, String internalToken, String... extraArgs)
            throws IOException {
        return start(id, ips, connectionString, internalToken, null, extraArgs);
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
     * @param extraArgs        more {@code --name=value} arguments
     * @return the started (not yet ready) process
     * @throws IOException if it cannot start
     */
    public static BorderProcess start(
            String id,
            List<String> ips,
            String connectionString,
            String internalToken,
            TestTrust trust,
            String... extraArgs)
            throws IOException {
        int port = ListenPorts.freeOutsideEphemeralRange();
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(
                java,
                "-Xmx192m",
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-jar",
                jar().toString(),
                "--server.port=" + port,
                "--egress.border.id=" + id,
                "--egress.border.ips=" + String.join(",", ips),
                "--egress.border.advertised-url=" + (trust == null ? "http" : "https") + "://127.0.0.1:" + port,
                "--egress.border.drain-timeout=5s",
                "--egress.security.internal-token=" + internalToken,
                "--egress.security.operator-token=" + OPERATOR_TOKEN,
                "--egress.ssrf.allowed-ranges=127.0.0.1/32:1024-65535",
                "--egress.registry.connection-string=" + connectionString,
                "--egress.registry.session-timeout=3s"));
        if (trust == null) {
            command.add("--egress.security.insecure-local=true");
        } else {
            command.addAll(trust.borderArgs(id));
        }
        command.addAll(List.of(extraArgs));
        Path log = Path.of("target", "system-it-" + id + ".log");
        Files.createDirectories(log.getParent());
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        return new BorderProcess(id, port, process, trust);
    }

    /**
     * Whether the Border reports ready (IPs bound and registered).
     *
     * @return true when readiness answers 200
     */
    public boolean ready() {
        try {
            return http.send(
                                    HttpRequest.newBuilder(URI.create(
                                                    scheme + "://127.0.0.1:" + port + "/actuator/health/readiness"))
                                            .timeout(Duration.ofSeconds(5))
                                            .build(),
                                    HttpResponse.BodyHandlers.discarding())
                            .statusCode()
                    == 200;
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
    public boolean awaitReadyOrExit() {
        await().atMost(Duration.ofMinutes(3))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> ready() || !alive());
        return ready();
    }

    /**
     * The Border's listening port.
     *
     * @return the port
     */
    public int port() {
        return port;
    }

    /**
     * The Border id.
     *
     * @return the id
     */
    public String id() {
        return id;
    }

    /**
     * Freezes the process (SIGSTOP): it keeps its sockets and its registry slot until the session
     * times out, accepts connections in the kernel, and answers nothing: a Border hung mid-request.
     *
     * @throws Exception if {@code kill} cannot run
     */
    public void freeze() throws Exception {
        Process kill = new ProcessBuilder("kill", "-STOP", Long.toString(process.pid()))
                .inheritIO()
                .start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IllegalStateException("could not SIGSTOP " + id);
        }
    }

    /** Kills the process at once (SIGKILL): its slot stays until the session times out. */
    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }

    /**
     * Whether the process still runs.
     *
     * @return true while alive
     */
    public boolean alive() {
        return process.isAlive();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    /**
     * Whether the jar exists (the reactor packages border-service before app-service's ITs).
     *
     * @return true if built
     */
    public static boolean built() {
        return new File(jar().toString()).isFile();
    }
}
