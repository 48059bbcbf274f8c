package dev.egress.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The README's first command, as a newcomer runs it: {@code ./run-local.sh --smoke} brings up the local
 * platform on its fixed ports, sends the dedicated tenant a durable webhook ({@code Prefer: respond-async}) that
 * the demo sink fails once and checks it delivered on the retry from the tenant's IPs with one {@code webhook-id}
 * and a Standard Webhooks signature that verifies, delivers for a dedicated and a shared tenant, sends the dedicated one's
 * webhook through a {@code CONNECT} tunnel of App's forward proxy on 127.0.0.1:3128 (arriving from its
 * dedicated IPs; 407 without credentials), runs the failover drill through
 * {@code ./run-local.sh stop|start border-b}, checks that {@code RUN_LOCAL_JAVA_OPTS} is added to the
 * defaults, and stops everything.
 */
class RunLocalSmokeIT {

    private static final List<Integer> LOCAL_PORTS = List.of(2136, 8080, 3128, 8181, 8182, 9999);

    @Test
    void theLocalPlatformStartsDeliversDurablyDirectlyAndThroughItsProxySurvivesABorderStopAndStops() throws Exception {
        List<Integer> busy = new ArrayList<>();
        for (int port : LOCAL_PORTS) {
            if (listening(port)) {
                busy.add(port);
            }
        }
        assumeTrue(
                busy.isEmpty(),
                () -> "skipped: the local platform's ports " + busy
                        + " are in use on 127.0.0.1 (is ./run-local.sh running?); stop it to run this test");

        Path root = Path.of("..").toAbsolutePath().normalize();
        Path log = Files.createTempFile("run-local-smoke", ".log");
        ProcessBuilder builder = new ProcessBuilder(
                        "bash", root.resolve("run-local.sh").toString(), "--smoke")
                .directory(root.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().put("RUN_LOCAL_JAVA_OPTS", "-Dsmoke.marker=added");
        Process process = builder.start();

        boolean exited = process.waitFor(10, TimeUnit.MINUTES);
        if (!exited) {
            process.destroy(); // SIGTERM: the script stops its children in order
            process.waitFor(2, TimeUnit.MINUTES);
        }
        String output = Files.readString(log);
        System.out.println(output);

        assertThat(exited).as("run-local.sh --smoke finished within 10 minutes").isTrue();
        assertThat(output)
                .containsPattern("OK   acme async: 202 /v1/deliveries/\\S+; the sink answered 503( \\d+)* 200; "
                        + "delivered from acme's IPs, webhook-id \\S+ on each of \\d+ attempts, signatures verified")
                .contains("OK   acme: delivered from 127.0.0.")
                .contains("OK   small-co: delivered from 127.0.0.")
                .contains("OK   acme: delivered from 127.0.0.3 (allowed: 127.0.0.3)")
                .contains(
                        "OK   proxy CONNECT: acme's webhook reached the sink from 127.0.0.",
                        "OK   proxy without credentials: 407 with Proxy-Authenticate: Basic realm=\"egress\"")
                .contains(
                        "run-local.sh stop border-b -> ok: stop border-b",
                        "run-local.sh start border-b -> ok: start border-b")
                .contains("OK   RUN_LOCAL_JAVA_OPTS added after the defaults")
                .contains("smoke test passed");
        assertThat(process.exitValue()).isZero();
        for (int port : LOCAL_PORTS) {
            assertThat(listening(port))
                    .as("port %d released after the run", port)
                    .isFalse();
        }
    }

    private static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
