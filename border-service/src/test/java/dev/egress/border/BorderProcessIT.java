package dev.egress.border;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.border.testing.BorderTestProperties;
import dev.egress.border.testing.Tokens;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.registry.RegistrySettings;
import dev.egress.discovery.registry.RoutingSnapshot;
import dev.egress.discovery.registry.RoutingTable;
import dev.egress.discovery.registry.ydb.YdbRegistry;
import dev.egress.discovery.registry.ydb.YdbRegistryWatcher;
import dev.egress.discovery.trust.AnnouncementVerifier;
import dev.egress.discovery.web.testing.RecordingSink;
import dev.egress.ydb.coordination.EmbeddedCoordinationNode;
import dev.egress.ydb.coordination.testing.ListenPorts;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The fat jar as a real process against the embedded coordination node, watched through the real
 * registry watcher: operator changes reach the registry, and SIGTERM drains in the order App needs.
 */
class BorderProcessIT {

    private static final BorderId BORDER = BorderId.of("border-proc");
    private static final EgressIp IP = EgressIp.of("127.0.0.9");
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(20);

    EmbeddedCoordinationNode node;
    RecordingSink sink;
    YdbRegistryWatcher watcher;
    Process border;
    int port;
    final RoutingTable table = new RoutingTable(Clock.systemUTC());
    /** What the registry said about this Border over time: its announcement, or empty once its slot is gone. */
    final List<Optional<Announcement>> history = new CopyOnWriteArrayList<>();

    final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @BeforeEach
    void start() throws Exception {
        node = EmbeddedCoordinationNode.start(0);
        sink = RecordingSink.start();
        table.addListener(snapshot ->
                history.add(Optional.ofNullable(snapshot.announcements().get(BORDER))));
        watcher = YdbRegistry.at(RegistrySettings.defaults(node.connectionString()), new SimpleMeterRegistry())
                .reader(AnnouncementVerifier.unverifiedForInsecureLocal())
                .watch(table);
        port = ListenPorts.freeOutsideEphemeralRange();
        Path log = Path.of("target", "border-process-it.log");
        String java = ProcessHandle.current().info().command().orElse("java");
        border = new ProcessBuilder(
                        java,
                        "-Xmx256m",
                        "-jar",
                        new File("target/border-service.jar").getAbsolutePath(),
                        "--server.port=" + port,
                        "--egress.border.id=" + BORDER,
                        "--egress.border.ips=" + IP,
                        "--" + BorderTestProperties.LOOPBACK_IPS,
                        "--egress.border.advertised-url=http://127.0.0.1:" + port,
                        "--egress.border.drain-timeout=" + DRAIN_TIMEOUT.toSeconds() + "s",
                        "--egress.security.internal-token=" + Tokens.INTERNAL,
                        "--egress.security.operator-token=" + Tokens.OPERATOR,
                        "--egress.security.insecure-local=true",
                        "--egress.ssrf.allowed-ranges=127.0.0.1/32:1024-65535",
                        "--egress.registry.connection-string=" + node.connectionString())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }

    @AfterEach
    void stop() throws Exception {
        if (border.isAlive()) {
            border.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        watcher.close();
        sink.close();
        node.close();
    }

    @Test
    void announcesOperatorChangesAndOnSigtermDrainsInFlightCallsBeforeReleasingTheSlot() throws Exception {
        await().atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> readiness() == 200 && statusInRegistry().equals(Optional.of(IpStatus.ACTIVE)));

        // An operator change is a whole new announcement in the registry.
        assertThat(operatorPut("DISABLED")).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30)).until(() -> statusInRegistry().equals(Optional.of(IpStatus.DISABLED)));
        assertThat(operatorPut("ACTIVE")).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30)).until(() -> statusInRegistry().equals(Optional.of(IpStatus.ACTIVE)));

        sink.reply(new RecordingSink.Reply(200, "done", Duration.ofSeconds(3), Map.of()));
        List<CompletableFuture<HttpResponse<String>>> inFlight = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            inFlight.add(http.sendAsync(forward("slow-" + i), HttpResponse.BodyHandlers.ofString()));
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> sink.received().size() == 3);
        int mark = history.size();

        long sigterm = System.nanoTime();
        border.destroy(); // SIGTERM
        assertThat(border.waitFor(DRAIN_TIMEOUT.toSeconds(), TimeUnit.SECONDS))
                .as("exits within the drain timeout; log: target/border-process-it.log")
                .isTrue();
        Duration took = Duration.ofNanos(System.nanoTime() - sigterm);

        for (CompletableFuture<HttpResponse<String>> call : inFlight) {
            HttpResponse<String> response = call.get(30, TimeUnit.SECONDS);
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).contains("\"body\":\"done\"", "\"sourceIp\":\"127.0.0.9\"");
        }
        await().atMost(Duration.ofSeconds(30))
                .until(() -> table.current().announcements().get(BORDER) == null);
        List<Optional<Announcement>> afterSigterm = history.subList(mark, history.size());
        int draining = indexOf(
                afterSigterm, a -> a.isPresent() && a.get().statusOf(IP).equals(Optional.of(IpStatus.DRAINING)));
        int gone = indexOf(afterSigterm, Optional::isEmpty);
        assertThat(draining)
                .as("DRAINING seen in the registry after SIGTERM: %s", afterSigterm)
                .isGreaterThanOrEqualTo(0);
        assertThat(gone).as("slot released after DRAINING").isGreaterThan(draining);
        assertThat(took).isLessThan(DRAIN_TIMEOUT);
    }

    private Optional<IpStatus> statusInRegistry() {
        RoutingSnapshot snapshot = table.current();
        Announcement a = snapshot.announcements().get(BORDER);
        return a == null ? Optional.empty() : a.statusOf(IP);
    }

    private int readiness() {
        try {
            return http.send(
                            HttpRequest.newBuilder(
                                            URI.create("http://127.0.0.1:" + port + "/actuator/health/readiness"))
                                    .timeout(Duration.ofSeconds(10))
                                    .build(),
                            HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    private int operatorPut(String status) throws Exception {
        return http.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/ops/v1/ips/" + IP))
                                .header("Authorization", "Bearer " + Tokens.OPERATOR)
                                .header("Content-Type", "application/json")
                                .timeout(Duration.ofSeconds(30))
                                .PUT(HttpRequest.BodyPublishers.ofString("{\"status\":\"" + status + "\"}"))
                                .build(),
                        HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    private HttpRequest forward(String deliveryId) {
        String body =
                "{\"deliveryId\":\"%s\",\"sourceIp\":\"%s\",\"url\":\"%s/hook\",\"method\":\"POST\",\"body\":\"{}\"}"
                        .formatted(deliveryId, IP, sink.baseUri());
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/internal/v1/egress"))
                .header("Authorization", "Bearer " + Tokens.INTERNAL)
                .header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
    }

    private static <T> int indexOf(List<T> list, Predicate<T> test) {
        for (int i = 0; i < list.size(); i++) {
            if (test.test(list.get(i))) {
                return i;
            }
        }
        return -1;
    }
}
