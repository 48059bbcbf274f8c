package dev.egress.app.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.app.resilience.BorderBreakers;
import dev.egress.app.resilience.PassiveHealth;
import dev.egress.app.resilience.RouteTraffic;
import dev.egress.discovery.registry.AnnouncedIp;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.registry.Route;
import dev.egress.discovery.registry.RoutingSnapshot;
import dev.egress.discovery.web.auth.PresentedToken;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.netty.DisposableServer;
import reactor.netty.http.HttpProtocol;
import reactor.netty.http.server.HttpServer;

/**
 * One fleet, one listener: a Border's handle (link, breaker, ejection, traffic) is created when it joins the
 * snapshot and retired as a whole when it leaves, its connections closing once its calls end.
 */
class BorderFleetTest {

    private static final BorderId A = BorderId.of("border-a");
    private static final BorderId B = BorderId.of("border-b");
    private static final EgressIp IP_A = EgressIp.of("127.0.0.2");
    private static final EgressIp IP_B = EgressIp.of("127.0.0.3");
    private static final URI HERE = URI.create("http://127.0.0.1:1");
    private static final URI THERE = URI.create("http://127.0.0.1:2");

    private final CircuitBreakerRegistry registry = CircuitBreakerRegistry.ofDefaults();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final BorderFleet fleet = new BorderFleet(
            new LinkFactory(
                    new LinkSettings(
                            4,
                            16,
                            Duration.ofSeconds(5),
                            Duration.ofSeconds(30),
                            true,
                            100,
                            Duration.ofSeconds(1),
                            Duration.ofMillis(250),
                            Duration.ofMillis(750)),
                    PresentedToken.of("t", "token", "t-file", null),
                    Optional.empty()),
            new BorderBreakers(registry),
            new PassiveHealth(1, Duration.ofMinutes(1), System::nanoTime, meters),
            new RouteTraffic(Duration.ofMinutes(1), System::nanoTime, meters));
    private DisposableServer border;

    @AfterEach
    void close() {
        fleet.close();
        if (border != null) {
            border.disposeNow();
        }
    }

    @Test
    void retiresADepartedBordersBreakerEjectionAndTrafficTogether() {
        fleet.follow(snapshot(announcement(A, HERE, IP_A), announcement(B, HERE, IP_B)));
        BorderHandle a = fleet.handle(A);
        assertThat(a).isNotNull();
        assertThat(registry.find("border-border-a")).containsSame(a.breaker());
        a.ejection().onFailure();
        a.breaker().transitionToOpenState();
        a.traffic().started(IP_A);
        a.traffic().finished(IP_A, "failed", true);
        assertThat(fleet.takesTraffic(A)).isFalse();
        assertThat(meters.get("egress.border.ejected").gauge().value()).isEqualTo(1.0);

        fleet.follow(snapshot(announcement(B, HERE, IP_B)));

        assertThat(fleet.handle(A)).isNull();
        assertThat(fleet.handle(route(A, HERE, IP_A))).isNull();
        assertThat(a.link()).as("a retired handle opens no link").isNull();
        assertThat(registry.find("border-border-a"))
                .as("its breaker left the registry")
                .isEmpty();
        assertThat(registry.find("border-border-b")).isPresent();
        assertThat(meters.get("egress.border.ejected").gauge().value()).isZero();
        assertThat(meters.find("egress.ip.attempts").tag("border", "border-a").counter())
                .isNull();
        assertThat(meters.find("egress.ip.in.flight").tag("border", "border-a").gauge())
                .isNull();
        assertThat(fleet.takesTraffic(A))
                .as("an unknown Border is not held back")
                .isTrue();

        fleet.follow(snapshot(announcement(A, HERE, IP_A), announcement(B, HERE, IP_B)));
        BorderHandle back = fleet.handle(A);
        assertThat(back).isNotNull().isNotSameAs(a);
        assertThat(back.breaker().getState())
                .as("a Border that comes back starts closed")
                .isEqualTo(CircuitBreaker.State.CLOSED);
        assertThat(back.takesTraffic()).isTrue();
        assertThat(back.traffic().stats(IP_A)).isEqualTo(RouteTraffic.Stats.NONE);
    }

    @Test
    void keepsTheHandleOfABorderWhoseAnnouncementChangesButNotItsEndpoint() {
        fleet.follow(snapshot(announcement(A, HERE, IP_A)));
        BorderHandle a = fleet.handle(A);

        fleet.follow(snapshot(announcement(A, HERE, IP_A, IP_B)));

        assertThat(fleet.handle(A)).isSameAs(a);
        assertThat(fleet.handle(route(A, HERE, IP_B))).isSameAs(a);
        assertThat(fleet.handles()).containsExactly(a);
    }

    @Test
    void aBorderThatMovesKeepsItsBreakerAndEjectionAndGetsANewLink() {
        fleet.follow(snapshot(announcement(A, HERE, IP_A)));
        BorderHandle before = fleet.handle(route(A, HERE, IP_A));
        assertThat(before).isNotNull();
        BorderLink oldLink = before.link();
        assertThat(oldLink).isNotNull();
        before.breaker().transitionToOpenState();

        fleet.follow(snapshot(announcement(A, THERE, IP_A)));

        assertThat(fleet.handle(route(A, HERE, IP_A)))
                .as("the old endpoint is gone")
                .isNull();
        BorderHandle after = fleet.handle(route(A, THERE, IP_A));
        assertThat(after).isNotNull().isNotSameAs(before);
        assertThat(after.breaker()).isSameAs(before.breaker());
        assertThat(after.ejection()).isSameAs(before.ejection());
        assertThat(after.traffic()).isSameAs(before.traffic());
        assertThat(after.link()).isNotNull().isNotSameAs(oldLink);
        assertThat(before.link()).isNull();
        assertThat(registry.find("border-border-a")).isPresent();
    }

    @Test
    void anEndpointTheTrustCannotVerifyIsNamedAndGetsNoLinkOpenedByTheFleet() {
        URI https = URI.create("https://127.0.0.1:1");
        fleet.follow(snapshot(announcement(A, https, IP_A)));

        BorderHandle a = fleet.handle(A);
        assertThat(a).isNotNull();
        assertThat(a.unverifiable()).contains("cannot verify https endpoint").contains("egress.trust");
        assertThat(fleet.unverifiable(https)).isEqualTo(a.unverifiable());
        assertThat(fleet.unverifiable(HERE)).isNull();
    }

    @Test
    void closesADepartedBordersConnectionsOnceItsCallsInFlightEnd() {
        AtomicInteger open = new AtomicInteger();
        Sinks.Empty<Void> release = Sinks.empty();
        border = HttpServer.create()
                .host("127.0.0.1")
                .port(0)
                .protocol(HttpProtocol.H2C)
                // The TCP connections (with HTTP/2, a server's "connection" observer sees streams).
                .doOnChannelInit((observer, channel, address) -> {
                    open.incrementAndGet();
                    channel.closeFuture().addListener(closed -> open.decrementAndGet());
                })
                .handle((request, response) -> request.uri().equals("/hold")
                        ? release.asMono()
                                .then(response.sendString(Mono.just("held")).then())
                        : response.sendString(Mono.just("ok")).then())
                .bindNow();
        URI endpoint = URI.create("http://127.0.0.1:" + border.port());
        fleet.follow(snapshot(announcement(A, endpoint, IP_A)));
        BorderLink link = fleet.handle(A).link();
        assertThat(get(link, "/ok").block(Duration.ofSeconds(10))).isEqualTo("ok");
        var held = get(link, "/hold").toFuture();
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> open.get() == 1);

        fleet.follow(snapshot());

        assertThat(open.get()).as("the call in flight keeps its connection").isEqualTo(1);
        release.tryEmitEmpty();
        assertThat(held.join()).isEqualTo("held");
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(open.get())
                        .as("closed once the last call ended")
                        .isZero());
    }

    private static Mono<String> get(BorderLink link, String path) {
        return Mono.defer(() -> {
            link.started();
            return link.http()
                    .get()
                    .uri(link.url(path))
                    .responseContent()
                    .aggregate()
                    .asString()
                    .doFinally(signal -> link.ended());
        });
    }

    private static Announcement announcement(BorderId id, URI endpoint, EgressIp... ips) {
        return Announcement.initial(
                id,
                endpoint,
                Arrays.stream(ips)
                        .map(ip -> new AnnouncedIp(ip, IpStatus.ACTIVE))
                        .toList(),
                Instant.now());
    }

    private static RoutingSnapshot snapshot(Announcement... announcements) {
        return RoutingSnapshot.fromAnnouncements(List.of(announcements), Instant.now());
    }

    private static Route route(BorderId id, URI endpoint, EgressIp ip) {
        return new Route(ip, id, endpoint, IpStatus.ACTIVE);
    }
}
