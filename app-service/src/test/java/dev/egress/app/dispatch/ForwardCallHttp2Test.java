package dev.egress.app.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.app.attempts.AttemptResult;
import dev.egress.discovery.registry.AnnouncedIp;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.registry.Route;
import dev.egress.discovery.registry.RoutingSnapshot;
import dev.egress.discovery.web.forward.ForwardDeadline;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.netty.DisposableServer;
import reactor.netty.http.HttpProtocol;
import reactor.netty.http.server.HttpServer;

/**
 * App's calls to a Border travel as HTTP/2 streams: slow calls in flight share a few connections instead
 * of taking one each, which is what capped in-flight deliveries at the pool size before. The stand-in
 * Border is a Reactor Netty server speaking HTTP/1.1 and h2c, as the Border does in insecure-local mode.
 */
class ForwardCallHttp2Test {

    private static final byte[] ANSWER = ("{\"deliveryId\":\"d\",\"sourceIp\":\"127.0.0.2\",\"borderId\":\"border-a\","
                    + "\"status\":200,\"headers\":{},\"body\":\"ok\",\"bodyTruncated\":false,\"latencyMs\":1}")
            .getBytes(StandardCharsets.UTF_8);

    private final Set<String> versions = ConcurrentHashMap.newKeySet();
    private final Set<String> connections = ConcurrentHashMap.newKeySet();
    private final AtomicInteger held = new AtomicInteger();
    private final Sinks.Empty<Void> release = Sinks.empty();
    private DisposableServer border;

    @BeforeEach
    void startBorder() {
        border = HttpServer.create()
                .host("127.0.0.1")
                .port(0)
                .protocol(HttpProtocol.HTTP11, HttpProtocol.H2C)
                .handle((request, response) -> request.receive()
                        .then()
                        .then(Mono.defer(() -> {
                            versions.add(request.version().text());
                            // An HTTP/2 stream reports its connection's peer: one client port per connection.
                            connections.add(String.valueOf(request.remoteAddress()));
                            held.incrementAndGet();
                            // Every call waits for the test's signal, like a slow target: all of them are in flight at
                            // once.
                            return release.asMono();
                        }))
                        .then(response.header("Content-Type", "application/json")
                                .sendByteArray(Mono.just(ANSWER))
                                .then()))
                .bindNow();
    }

    @AfterEach
    void stopBorder() {
        release.tryEmitEmpty();
        border.disposeNow();
    }

    private FleetCalls clients(Map<String, String> properties) {
        FleetCalls clients = FleetCalls.of(properties);
        clients.retain(RoutingSnapshot.fromAnnouncements(
                List.of(Announcement.initial(
                        BorderId.of("border-a"),
                        endpoint(),
                        List.of(new AnnouncedIp(EgressIp.of("127.0.0.2"), IpStatus.ACTIVE)),
                        Instant.now())),
                Instant.now()));
        return clients;
    }

    private URI endpoint() {
        return URI.create("http://127.0.0.1:" + border.port());
    }

    private static ForwardDeadline later() {
        return new ForwardDeadline(System.currentTimeMillis() + 60_000);
    }

    private Route route() {
        return new Route(EgressIp.of("127.0.0.2"), BorderId.of("border-a"), endpoint(), IpStatus.ACTIVE);
    }

    @Test
    void carriesHundredsOfSlowCallsAsStreamsOfAFewConnections() {
        int calls = 300;
        try (FleetCalls clients = clients(Map.of())) {
            var results = Flux.range(0, calls)
                    .flatMap(i -> clients.call(route(), "{}".getBytes(StandardCharsets.UTF_8), later()), calls)
                    .collectList()
                    .toFuture();

            // All 300 reach the Border while none is answered: more than the 256 connections a Border gets.
            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertThat(held.get()).isEqualTo(calls));
            assertThat(versions).containsExactly("HTTP/2.0");
            // 100 streams per connection by default (egress.dispatch.max-streams-per-connection).
            assertThat(connections).hasSizeBetween(3, 4);

            release.tryEmitEmpty();
            assertThat(results.join())
                    .hasSize(calls)
                    .allSatisfy(r -> assertThat(r.kind()).isEqualTo(AttemptResult.Kind.DELIVERED));
        }
    }

    @Test
    void speaksHttp11WithOneConnectionPerCallWhenHttp2IsOff() {
        try (FleetCalls clients = clients(Map.of("egress.dispatch.border-http2", "false"))) {
            var results = Flux.range(0, 3)
                    .flatMap(i -> clients.call(route(), "{}".getBytes(StandardCharsets.UTF_8), later()))
                    .collectList()
                    .toFuture();
            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertThat(held.get()).isEqualTo(3));
            assertThat(versions).containsExactly("HTTP/1.1");
            assertThat(connections).hasSize(3);

            release.tryEmitEmpty();
            assertThat(results.join()).allSatisfy(r -> assertThat(r.kind()).isEqualTo(AttemptResult.Kind.DELIVERED));
        }
    }

    @Test
    void aCallInFlightWhenItsBorderLeavesTheSnapshotStillGetsItsAnswer() {
        try (FleetCalls clients = clients(Map.of())) {
            var inFlight = clients.call(route(), "{}".getBytes(StandardCharsets.UTF_8), later())
                    .toFuture();
            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertThat(held.get()).isEqualTo(1));

            // The Border drains and leaves the snapshot while the call waits for its (slow) target.
            clients.retain(RoutingSnapshot.fromAnnouncements(List.of(), Instant.now()));
            assertThat(clients.call(route(), "{}".getBytes(StandardCharsets.UTF_8), later())
                            .block()
                            .kind())
                    .as("no new call goes to a Border that left")
                    .isEqualTo(AttemptResult.Kind.BORDER_LEFT);

            release.tryEmitEmpty();
            assertThat(inFlight.join().kind()).isEqualTo(AttemptResult.Kind.DELIVERED);
        }
    }
}
