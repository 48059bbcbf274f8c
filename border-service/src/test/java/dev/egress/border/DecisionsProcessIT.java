package dev.egress.border;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.border.testing.Tokens;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.AnnouncementWriter;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.registry.RegistrySettings;
import dev.egress.discovery.registry.RoutingTable;
import dev.egress.discovery.registry.ydb.YdbBorderRegistry;
import dev.egress.discovery.registry.ydb.YdbRegistry;
import dev.egress.discovery.registry.ydb.YdbRegistryWatcher;
import dev.egress.discovery.trust.AnnouncementVerifier;
import dev.egress.ydb.coordination.EmbeddedCoordinationNode;
import dev.egress.ydb.coordination.testing.ListenPorts;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The fat jar as a real process against the embedded coordination node: an operator's DISABLED survives a
 * restart of the Border (and is never announced ACTIVE in between), and a corrupt stored record starts every
 * IP DISABLED.
 */
class DecisionsProcessIT {

    private static final BorderId BORDER = BorderId.of("border-dec");
    private static final EgressIp KEPT = EgressIp.of("127.0.0.8");
    private static final EgressIp DISABLED = EgressIp.of("127.0.0.9");
    private static final Duration START = Duration.ofSeconds(90);

    EmbeddedCoordinationNode node;
    YdbRegistryWatcher watcher;
    Process border;
    int port;
    int starts;
    final RoutingTable table = new RoutingTable(Clock.systemUTC());
    /** Every announcement of this Border the registry showed, in order. */
    final List<Announcement> history = new CopyOnWriteArrayList<>();

    final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @BeforeEach
    void start() {
        node = EmbeddedCoordinationNode.start(0);
        table.addListener(snapshot -> {
            Announcement a = snapshot.announcements().get(BORDER);
            if (a != null) {
                history.add(a);
            }
        });
        watcher = YdbRegistry.at(RegistrySettings.defaults(node.connectionString()), new SimpleMeterRegistry())
                .reader(AnnouncementVerifier.unverifiedForInsecureLocal())
                .watch(table);
    }

    @AfterEach
    void stop() throws Exception {
        if (border != null && border.isAlive()) {
            border.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        watcher.close();
        node.close();
    }

    @Test
    void anIpTheOperatorDisabledIsStillDisabledAfterARestartAndNeverAnnouncedActiveInBetween() throws Exception {
        startBorder();
        await().atMost(START).until(() -> readiness() == 200 && statusInRegistry(DISABLED) == IpStatus.ACTIVE);

        // The operator PUT now stores before it announces: print what that costs (a few PUTs, warm).
        long[] millis = new long[6];
        for (int i = 0; i < millis.length; i++) {
            long started = System.nanoTime();
            assertThat(operatorPut(KEPT, i % 2 == 0 ? "DRAINING" : "ACTIVE")).isEqualTo(200);
            millis[i] = (System.nanoTime() - started) / 1_000_000;
        }
        System.out.printf("[decisions] operator PUT (store + announce), ms: %s%n", Arrays.toString(millis));

        assertThat(operatorPut(DISABLED, "DISABLED")).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30)).until(() -> statusInRegistry(DISABLED) == IpStatus.DISABLED);

        border.destroyForcibly().waitFor(30, TimeUnit.SECONDS); // a crash: no drain, no goodbye
        int mark = history.size();
        startBorder();
        await().atMost(START)
                .until(() -> readiness() == 200
                        && history.size() > mark
                        && history.get(history.size() - 1).generation() == 0);

        Announcement restarted = history.get(history.size() - 1);
        assertThat(restarted.statusOf(DISABLED)).contains(IpStatus.DISABLED);
        assertThat(restarted.statusOf(KEPT)).contains(IpStatus.ACTIVE);
        assertThat(history.subList(mark, history.size()))
                .as("no announcement of the restarted Border had %s ACTIVE", DISABLED)
                .allSatisfy(a -> assertThat(a.statusOf(DISABLED)).isNotEqualTo(Optional.of(IpStatus.ACTIVE)));
        assertThat(opsIps()).contains("\"ip\":\"127.0.0.9\",\"bind\":\"127.0.0.9\",\"status\":\"DISABLED\"");
    }

    @Test
    void aCorruptStoredRecordStartsEveryIpDisabledAndSaysWhyInReadiness() throws Exception {
        try (YdbBorderRegistry writer = YdbRegistry.at(
                        RegistrySettings.defaults(node.connectionString()), new SimpleMeterRegistry())
                .writer(AnnouncementWriter.unsignedForInsecureLocal())
                .connect()) {
            writer.decisions(BORDER)
                    .write("{\"version\":1,\"borderId\":\"border-dec\",\"decisions\":{\"127.0.0.9\":\"ACTIVE\""
                            .getBytes(StandardCharsets.UTF_8))
                    .get(60, TimeUnit.SECONDS);
        }

        startBorder();
        // Every IP DISABLED: registered, but not Ready (503), so a rollout stops here.
        await().atMost(START).until(() -> readiness() == 503 && !history.isEmpty());

        assertThat(history)
                .allSatisfy(a -> assertThat(a.ips())
                        .allSatisfy(ip -> assertThat(ip.status()).isEqualTo(IpStatus.DISABLED)));
        String readiness = readinessBody();
        assertThat(readiness).contains("\"state\":\"FAIL_CLOSED\"").contains("the stored record is unreadable");
        assertThat(Files.readString(log()))
                .contains("ERROR")
                .contains("Operator decisions of border-dec cannot be read, so every IP starts DISABLED");

        // An operator sets one IP; the other stays DISABLED, in the registry's record too.
        assertThat(operatorPut(KEPT, "ACTIVE")).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30)).until(() -> statusInRegistry(KEPT) == IpStatus.ACTIVE);
        assertThat(statusInRegistry(DISABLED)).isEqualTo(IpStatus.DISABLED);
        assertThat(readiness()).isEqualTo(200);
    }

    private void startBorder() throws Exception {
        if (port == 0) {
            port = ListenPorts.freeOutsideEphemeralRange();
        }
        starts++;
        String java = ProcessHandle.current().info().command().orElse("java");
        border = new ProcessBuilder(
                        java,
                        "-Xmx256m",
                        "-jar",
                        new File("target/border-service.jar").getAbsolutePath(),
                        "--server.port=" + port,
                        "--egress.border.id=" + BORDER,
                        "--egress.border.ips=" + KEPT + "," + DISABLED,
                        "--egress.border.allow-loopback-ips=true",
                        "--egress.border.advertised-url=http://127.0.0.1:" + port,
                        "--egress.security.internal-token=" + Tokens.INTERNAL,
                        "--egress.security.operator-token=" + Tokens.OPERATOR,
                        "--egress.security.insecure-local=true",
                        "--egress.registry.session-timeout=2s",
                        "--egress.registry.connection-string=" + node.connectionString())
                .redirectErrorStream(true)
                .redirectOutput(log().toFile())
                .start();
    }

    private Path log() {
        return Path.of("target", "decisions-process-it-" + starts + ".log");
    }

    private IpStatus statusInRegistry(EgressIp ip) {
        Announcement a = table.current().announcements().get(BORDER);
        return a == null ? null : a.statusOf(ip).orElse(null);
    }

    private int readiness() {
        try {
            return get("/actuator/health/readiness").statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    private String readinessBody() throws Exception {
        return get("/actuator/health/readiness").body();
    }

    private String opsIps() throws Exception {
        return http.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/ops/v1/ips"))
                                .header("Authorization", "Bearer " + Tokens.OPERATOR)
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private int operatorPut(EgressIp ip, String status) throws Exception {
        return http.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/ops/v1/ips/" + ip))
                                .header("Authorization", "Bearer " + Tokens.OPERATOR)
                                .header("Content-Type", "application/json")
                                .timeout(Duration.ofSeconds(30))
                                .PUT(HttpRequest.BodyPublishers.ofString("{\"status\":\"" + status + "\"}"))
                                .build(),
                        HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }
}
