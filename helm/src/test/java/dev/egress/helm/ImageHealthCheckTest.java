package dev.egress.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The image's HEALTHCHECK, run as Docker runs it ({@code /bin/sh -c} with the container's environment) with
 * the real curl against real servers on loopback: http for App, https for a Border on the trust chain,
 * the management port when one is set, and failure when nothing answers. Skipped where curl is absent.
 */
class ImageHealthCheckTest {

    private static final Path DOCKERFILE =
            ChartRendering.CHART.getParent().getParent().resolve("Dockerfile");
    private static final Pattern HEALTHCHECK =
            Pattern.compile("^HEALTHCHECK .*?CMD (.*?)(?<!\\\\)$", Pattern.MULTILINE | Pattern.DOTALL);
    private static final String READINESS = "/actuator/health/readiness";

    private static String command;

    @BeforeAll
    static void readTheHealthCheck() {
        Matcher matcher = HEALTHCHECK.matcher(ChartRendering.read(DOCKERFILE));
        assertThat(matcher.find()).as("a HEALTHCHECK ... CMD in the Dockerfile").isTrue();
        command = matcher.group(1).replaceAll("\\\\\\n", " ");
    }

    private static boolean curlPresent() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, "curl"))) {
                return true;
            }
        }
        return false;
    }

    private static int check(Map<String, String> env) throws IOException, InterruptedException {
        assumeTrue(curlPresent(), "curl not on PATH: the image's health check (curl) cannot run here");
        ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().putAll(env);
        Process process = builder.start();
        boolean finished = process.waitFor(30, TimeUnit.SECONDS);
        if (!finished) {
            process.destroyForcibly();
        }
        assertThat(finished)
                .as("the health check finished (Docker gives it 5 s)")
                .isTrue();
        return process.exitValue();
    }

    private static HttpServer serve(HttpServer server) {
        server.createContext(READINESS, exchange -> {
            byte[] body = "{\"status\":\"UP\"}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        return server;
    }

    private static InetSocketAddress loopback() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    }

    @Test
    void anHttpAppIsHealthy() throws Exception {
        HttpServer app = serve(HttpServer.create(loopback(), 0));
        try {
            assertThat(check(Map.of(
                            "SERVER_PORT", String.valueOf(app.getAddress().getPort()))))
                    .isZero();
        } finally {
            app.stop(0);
        }
    }

    @Test
    void anHttpsBorderOnTheTrustChainIsHealthy(@TempDir Path work) throws Exception {
        HttpsServer border = HttpsServer.create(loopback(), 0);
        border.setHttpsConfigurator(new HttpsConfigurator(selfSigned(work)));
        serve(border);
        try {
            assertThat(check(Map.of(
                            "SERVER_PORT", String.valueOf(border.getAddress().getPort()))))
                    .isZero();
        } finally {
            border.stop(0);
        }
    }

    @Test
    void theManagementPortIsAskedWhenSetAndNothingListeningIsUnhealthy() throws Exception {
        HttpServer management = serve(HttpServer.create(loopback(), 0));
        HttpServer idle = HttpServer.create(loopback(), 0);
        int closed = idle.getAddress().getPort();
        idle.stop(0);
        try {
            assertThat(check(Map.of(
                            "SERVER_PORT", String.valueOf(closed),
                            "MANAGEMENT_SERVER_PORT",
                                    String.valueOf(management.getAddress().getPort()))))
                    .isZero();
            assertThat(check(Map.of("SERVER_PORT", String.valueOf(closed)))).isNotZero();
        } finally {
            management.stop(0);
        }
    }

    /** A throwaway self-signed key pair from the JDK's keytool, as an SSLContext. */
    private static SSLContext selfSigned(Path work) throws Exception {
        Path store = work.resolve("border.p12");
        List<String> keytool = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair",
                "-alias",
                "border",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=border-a",
                "-validity",
                "1",
                "-storetype",
                "PKCS12",
                "-keystore",
                store.toString(),
                "-storepass",
                "changeit"));
        Process process = new ProcessBuilder(keytool).redirectErrorStream(true).start();
        process.getInputStream().readAllBytes();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("keytool").isZero();
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keys.load(in, "changeit".toCharArray());
        }
        KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(keys, "changeit".toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(factory.getKeyManagers(), null, null);
        return context;
    }
}
