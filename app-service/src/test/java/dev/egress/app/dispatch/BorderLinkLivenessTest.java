package dev.egress.app.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.discovery.AnnouncedIp;
import dev.egress.discovery.Announcement;
import dev.egress.discovery.BorderId;
import dev.egress.discovery.EgressIp;
import dev.egress.discovery.IpStatus;
import dev.egress.discovery.Route;
import dev.egress.discovery.RoutingSnapshot;
import dev.egress.discovery.forward.ForwardDeadline;
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
import java.util.Optional;
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
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.HttpProtocol;
import reactor.netty.http.server.HttpServer;
import tools.jackson.databind.json.JsonMapper;

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
                            .then()
                            .then(response.header("Content-Type", "application/json")
                                    .sendByteArray(Mono.just(ANSWER))
                                    .then());
                })
                .bindNow();
        relay = new SilenceableRelay(new InetSocketAddress("127.0.0.1", border.port()));
    }

    @AfterEach
    void stop() {
        relay.close();
        border.disposeNow();
    }

    @Test
    void closesASilentConnectionAndSendsTheNextCallOverANewOne() {
        try (BorderClients clients = clients()) {
            assertThat(call(clients).kind()).isEqualTo(AttemptResult.Kind.DELIVERED);
            assertThat(deadlines).as("the attempt's deadline travels with it").allMatch(d -> d.matches("\\d{13}"));
            Instant silenced = Instant.now();
            relay.silenceOpenConnections();

            // 250 ms without a read sends a PING; 750 ms without an answer closes the connection.
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> relay.closedByClient() == 1);
            Duration noticed = Duration.between(silenced, Instant.now());

            AttemptResult next = call(clients);
            assertThat(next.kind()).as(next.detail()).isEqualTo(AttemptResult.Kind.DELIVERED);
            assertThat(relay.connections())
                    .as("the next call opened a new connection")
                    .isEqualTo(2);
            assertThat(noticed)
                    .as("silence noticed within ping-interval + ping-timeout")
                    .isLessThan(Duration.ofMillis(2_500));
        }
    }

    @Test
    void aCallWhileAPingIsInDoubtIsNotWrittenIntoTheSilentConnection() {
        try (BorderClients clients = clients()) {
            assertThat(call(clients).kind()).isEqualTo(AttemptResult.Kind.DELIVERED);
            relay.silenceOpenConnections();
            // The PING (a 17-byte frame) went into the silence: the link is in doubt now.
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> relay.droppedUpstream() >= 17);

            long start = System.nanoTime();
            AttemptResult result = call(clients);
            Duration took = Duration.ofNanos(System.nanoTime() - start);

            assertThat(result.kind()).as(result.detail()).isEqualTo(AttemptResult.Kind.NOT_REACHED);
            assertThat(result.targetContacted()).isFalse();
            assertThat(result.retryable()).isTrue();
            assertThat(result.detail()).contains("PING");
            assertThat(took).as("not the 10 s attempt timeout").isLessThan(Duration.ofSeconds(2));
            assertThat(relay.droppedUpstream())
                    .as("nothing but PINGs went into the silent connection")
                    .isLessThan(100);
        }
    }

    @Test
    void keepsAnIdleHealthyConnectionOpenByAnsweringItsPings() {
        try (BorderClients clients = clients()) {
            assertThat(call(clients).kind()).isEqualTo(AttemptResult.Kind.DELIVERED);
            long afterCall = relay.bytesUpstream();
            // Four PINGs, each answered: a second and more without a call.
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> relay.bytesUpstream() >= afterCall + 4 * 17);

            assertThat(call(clients).kind()).isEqualTo(AttemptResult.Kind.DELIVERED);
            assertThat(relay.connections()).as("still the first connection").isEqualTo(1);
            assertThat(relay.closedByClient()).isZero();
        }
    }

    private BorderClients clients() {
        DispatchProperties dispatch = new Binder(new MapConfigurationPropertySource(
                        Map.of("egress.dispatch.attempt-timeout", "10s", "egress.dispatch.connect-timeout", "1s")))
                .bindOrCreate("egress.dispatch", DispatchProperties.class);
        BorderClients clients = new BorderClients(dispatch, JsonMapper.builder().build(), "token", Optional.empty());
        clients.retain(RoutingSnapshot.fromAnnouncements(
                List.of(Announcement.initial(
                        BorderId.of("border-a"),
                        endpoint(),
                        List.of(new AnnouncedIp(EgressIp.of("127.0.0.2"), IpStatus.ACTIVE)),
                        Instant.now())),
                Instant.now()));
        return clients;
    }

    private AttemptResult call(BorderClients clients) {
        return clients.call(
                        new Route(EgressIp.of("127.0.0.2"), BorderId.of("border-a"), endpoint(), IpStatus.ACTIVE),
                        "{}".getBytes(StandardCharsets.UTF_8),
                        new ForwardDeadline(System.currentTimeMillis() + 10_000))
                .block(Duration.ofSeconds(30));
    }

    private URI endpoint() {
        return URI.create("http://127.0.0.1:" + relay.port());
    }

    /**
     * A loopback TCP relay whose open connections can be silenced: from then on their bytes are dropped in
     * both directions and nothing is closed, as on a partitioned link. Connections accepted later pass.
     */
    static final class SilenceableRelay implements AutoCloseable {
        private final ServerSocket server;
        private final InetSocketAddress upstream;
        private final Set<AtomicBoolean> silences = ConcurrentHashMap.newKeySet();
        private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
        private final AtomicInteger connections = new AtomicInteger();
        private final AtomicInteger closedByClient = new AtomicInteger();
        private final AtomicLong bytesUpstream = new AtomicLong();
        private final AtomicLong droppedUpstream = new AtomicLong();

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
                            droppedUpstream.addAndGet(n);
                        }
                        continue;
                    }
                    if (up) {
                        bytesUpstream.addAndGet(n);
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
                if (up) {
                    closedByClient.incrementAndGet();
                }
            } catch (IOException e) {
                if (up) {
                    // A reset from App's side: the abortive close of a silent connection.
                    closedByClient.incrementAndGet();
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

        int port() {
            return server.getLocalPort();
        }

        int connections() {
            return connections.get();
        }

        int closedByClient() {
            return closedByClient.get();
        }

        long bytesUpstream() {
            return bytesUpstream.get();
        }

        long droppedUpstream() {
            return droppedUpstream.get();
        }

        @Override
        public void close() {
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
