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
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.netty.DisposableServer;
import reactor.netty.http.HttpProtocol;
import reactor.netty.http.server.HttpServer;

/**
 * A connection to a Border that goes silent (a partition: no reset, no answer) is noticed by its PINGs and
 * closed within {@code ping-interval + ping-timeout}; a call made while its PING is in doubt is not written
 * into it but reported as not sent, and the next call goes over a new connection. The Border stand-in is a
 * Reactor Netty h2c server, as the Border is in insecure-local mode, behind a loopback relay that can stop
 * forwarding the connections it carries.
 */
class BorderLinkLivenessTest {

    private static final byte[] ANSWER = ("{\"deliveryId\":\"d\",\"sourceIp\":\"127.0.0.2\",\"borderId\":\"border-a\","
                    + "\"status\":200,\"headers\":{},\"body\":\"ok\",\"bodyTruncated\":false,\"latencyMs\":1}")
            .getBytes(StandardCharsets.UTF_8);

    private final List<String> deadlines = new CopyOnWriteArrayList<>();
    private final AtomicInteger held = new AtomicInteger();
    private final Sinks.Empty<Void> release = Sinks.empty();
    private DisposableServer border;
    private SilenceableRelay relay;

    @BeforeEach
    void startBorderBehindRelay() throws IOException {
        border = HttpServer.create()
                .host("127.0.0.1")
                .port(0)
                .protocol(HttpProtocol.H2C)
                .handle((request, response) -> {
                    deadlines.add(String.valueOf(request.requestHeaders().get(ForwardDeadline.HEADER)));
                    return request.receive()
                            .aggregate()
                            .asString()
                            .flatMap(body -> {
                                if (!body.equals("hold")) {
                                    return Mono.empty();
                                }
                                held.incrementAndGet();
                                return release.asMono();
                            })
                            .then(response.header("Content-Type", "application/json")
                                    .sendByteArray(Mono.just(ANSWER))
                                    .then());
                })
                .bindNow();
        relay = new SilenceableRelay(new InetSocketAddress("127.0.0.1", border.port()));
    }

    @AfterEach
    void stop() {
        release.tryEmitEmpty();
        relay.close();
        border.disposeNow();
    }

    @Test
    void aCallWhileAPingIsInDoubtIsNotWrittenIntoTheSilentConnection() {
        try (FleetCalls clients = clients()) {
            assertThat(call(clients, "{}").kind()).isEqualTo(AttemptResult.Kind.DELIVERED);
            assertThat(deadlines).as("the attempt's deadline travels with it").allMatch(d -> d.matches("\\d{13}"));
            relay.silenceOpenConnections();
            // The PING (a 17-byte frame) went into the silence: the link is in doubt now.
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> relay.heldUpstream() >= 17);

            long start = System.nanoTime();
            AttemptResult result = call(clients, "{}");
            Duration took = Duration.ofNanos(System.nanoTime() - start);

            assertThat(result.kind()).as(result.detail()).isEqualTo(AttemptResult.Kind.LINK_SILENT);
            assertThat(result.targetContacted()).isFalse();
            assertThat(result.retryable()).isTrue();
            assertThat(result.detail()).contains("PING");
            assertThat(took).as("not the 10 s attempt timeout").isLessThan(Duration.ofSeconds(2));
            assertThat(relay.heldUpstream())
                    .as("nothing but PINGs went into the silent connection")
                    .isLessThan(100);
        }
    }

    @Test
    void closesASilentIdleConnectionAndSendsTheNextCallOverANewOne() {
        try (FleetCalls clients = clients()) {
            assertThat(call(clients, "{}").kind()).isEqualTo(AttemptResult.Kind.DELIVERED);
            Instant silenced = Instant.now();
            relay.silenceOpenConnections();
            // Only once the PING is in doubt: a call made before would be in flight on the connection.
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> relay.heldUpstream() >= 17);

            // 250 ms without a read sends a PING, 750 ms without an answer makes the connection silent; idle, it
            // is closed then, and a call goes over a new connection.
            Awaitility.await()
                    .atMost(Duration.ofSeconds(5))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> call(clients, "{}").kind() == AttemptResult.Kind.DELIVERED);
            Duration recovered = Duration.between(silenced, Instant.now());

            assertThat(relay.connections()).as("over a new connection").isEqualTo(2);
            assertThat(recovered)
                    .as("within ping-interval + ping-timeout and a margin")
                    .isLessThan(Duration.ofMillis(2_500));
        }
    }

    @Test
    void aSlowBorderKeepsItsCallsInFlightAndTakesNewOnesOnceItAnswersAgain() {
        try (FleetCalls clients = clients()) {
            assertThat(call(clients, "{}").kind()).isEqualTo(AttemptResult.Kind.DELIVERED);
            var inFlight = clients.call(route(), "hold".getBytes(StandardCharsets.UTF_8), later())
                    .toFuture();
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> held.get() == 1);
            relay.silenceOpenConnections();
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> relay.heldUpstream() >= 17);
            assertThat(call(clients, "{}").kind())
                    .as("no new call while the connection is silent")
                    .isEqualTo(AttemptResult.Kind.LINK_SILENT);

            release.tryEmitEmpty();
            relay.resume();

            assertThat(inFlight.join().kind())
                    .as("the call in flight is answered: a silent connection with calls is not closed")
                    .isEqualTo(AttemptResult.Kind.DELIVERED);
            assertThat(call(clients, "{}").kind()).isEqualTo(AttemptResult.Kind.DELIVERED);
            assertThat(relay.connections()).as("still the first connection").isEqualTo(1);
        }
    }

    @Test
    void aSilentLinkTakesNoTrafficCountsNoBorderFaultAndTakesTrafficAgainOnceItAnswers() {
        try (FleetCalls clients = clients()) {
            assertThat(call(clients, "{}").kind()).isEqualTo(AttemptResult.Kind.DELIVERED);
            // A call in flight keeps the silent connection open (an idle one would be closed at once).
            var inFlight = clients.call(route(), "hold".getBytes(StandardCharsets.UTF_8), later())
                    .toFuture();
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> held.get() == 1);
            assertThat(clients.takesTraffic(route().borderId())).isTrue();
            relay.silenceOpenConnections();

            Awaitility.await()
                    .atMost(Duration.ofSeconds(5))
                    .pollInterval(Duration.ofMillis(20))
                    .until(() -> !clients.takesTraffic(route().borderId()));
            AttemptResult refused = call(clients, "{}");

            assertThat(refused.kind()).isEqualTo(AttemptResult.Kind.LINK_SILENT);
            assertThat(refused.retryable()).isTrue();
            assertThat(refused.borderFault())
                    .as("the silence keeps calls off the link; it must not also open the breaker for its wait")
                    .isFalse();
            assertThat(refused.neutral()).isTrue();

            relay.resume();
            Awaitility.await()
                    .atMost(Duration.ofSeconds(5))
                    .pollInterval(Duration.ofMillis(20))
                    .until(() -> clients.takesTraffic(route().borderId()));
            assertThat(call(clients, "{}").kind()).isEqualTo(AttemptResult.Kind.DELIVERED);
            release.tryEmitEmpty();
            assertThat(inFlight.join().kind()).isEqualTo(AttemptResult.Kind.DELIVERED);
        }
    }

    @Test
    void keepsAnIdleHealthyConnectionOpenByAnsweringItsPings() {
        try (FleetCalls clients = clients()) {
            assertThat(call(clients, "{}").kind()).isEqualTo(AttemptResult.Kind.DELIVERED);
            long afterCall = relay.bytesUpstream();
            // Four PINGs, each answered: a second and more without a call.
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> relay.bytesUpstream() >= afterCall + 4 * 17);

            assertThat(call(clients, "{}").kind()).isEqualTo(AttemptResult.Kind.DELIVERED);
            assertThat(relay.connections()).as("still the first connection").isEqualTo(1);
        }
    }

    private FleetCalls clients() {
        FleetCalls clients = FleetCalls.of(
                Map.of("egress.dispatch.attempt-timeout", "10s", "egress.dispatch.connect-timeout", "1s"));
        clients.retain(RoutingSnapshot.fromAnnouncements(
                List.of(Announcement.initial(
                        BorderId.of("border-a"),
                        endpoint(),
                        List.of(new AnnouncedIp(EgressIp.of("127.0.0.2"), IpStatus.ACTIVE)),
                        Instant.now())),
                Instant.now()));
        return clients;
    }

    private AttemptResult call(FleetCalls clients, String body) {
        return clients.call(route(), body.getBytes(StandardCharsets.UTF_8), later())
                .block(Duration.ofSeconds(30));
    }

    private Route route() {
        return new Route(EgressIp.of("127.0.0.2"), BorderId.of("border-a"), endpoint(), IpStatus.ACTIVE);
    }

    private static ForwardDeadline later() {
        return new ForwardDeadline(System.currentTimeMillis() + 10_000);
    }

    private URI endpoint() {
        return URI.create("http://127.0.0.1:" + relay.port());
    }

    /**
     * A loopback TCP relay whose open connections can be silenced, as by a partition: from then on nothing
     * passes either way and nothing is closed; what they carry waits (in the kernel's buffers, as with
     * retransmissions) until {@link #resume}. Connections accepted later pass.
     */
    static final class SilenceableRelay implements AutoCloseable {
        private final ServerSocket server;
        private final InetSocketAddress upstream;
        private final Set<AtomicBoolean> silences = ConcurrentHashMap.newKeySet();
        private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
        private final Object gate = new Object();
        private final AtomicInteger connections = new AtomicInteger();
        private final AtomicLong bytesUpstream = new AtomicLong();
        private final AtomicLong heldUpstream = new AtomicLong();

        SilenceableRelay(InetSocketAddress upstream) throws IOException {
            this.upstream = upstream;
            this.server = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
            daemon(this::accept);
        }

        private void accept() {
            while (!server.isClosed()) {
                try {
                    Socket client = server.accept();
                    Socket target = new Socket(upstream.getAddress(), upstream.getPort());
                    sockets.add(client);
                    sockets.add(target);
                    connections.incrementAndGet();
                    AtomicBoolean silenced = new AtomicBoolean();
                    silences.add(silenced);
                    daemon(() -> pump(client, target, silenced, true));
                    daemon(() -> pump(target, client, silenced, false));
                } catch (IOException e) {
                    return;
                }
            }
        }

        private void pump(Socket from, Socket to, AtomicBoolean silenced, boolean up) {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream()) {
                OutputStream out = to.getOutputStream();
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    if (silenced.get()) {
                        if (up) {
                            heldUpstream.addAndGet(n);
                        }
                        awaitResume(silenced);
                    }
                    if (up) {
                        bytesUpstream.addAndGet(n);
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // the connection ended
            }
        }

        private void awaitResume(AtomicBoolean silenced) throws InterruptedException {
            synchronized (gate) {
                while (silenced.get()) {
                    gate.wait();
                }
            }
        }

        private static void daemon(Runnable task) {
            Thread thread = new Thread(task, "silenceable-relay");
            thread.setDaemon(true);
            thread.start();
        }

        void silenceOpenConnections() {
            silences.forEach(s -> s.set(true));
        }

        void resume() {
            synchronized (gate) {
                silences.forEach(s -> s.set(false));
                gate.notifyAll();
            }
        }

        int port() {
            return server.getLocalPort();
        }

        int connections() {
            return connections.get();
        }

        long bytesUpstream() {
            return bytesUpstream.get();
        }

        long heldUpstream() {
            return heldUpstream.get();
        }

        @Override
        public void close() {
            resume();
            try {
                server.close();
            } catch (IOException e) {
                // closing anyway
            }
            for (Socket socket : sockets) {
                try {
                    socket.close();
                } catch (IOException e) {
                    // closing anyway
                }
            }
        }
    }
}
