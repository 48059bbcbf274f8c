package dev.egress.border.tunnel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.border.testing.BorderTestProperties;
import dev.egress.border.testing.LocalBorderTest;
import dev.egress.border.testing.Tokens;
import dev.egress.discovery.web.forward.TunnelCall;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.netty.http.HttpProtocol;
import reactor.netty.http.client.HttpClient;

/**
 * Tunnels the Border cannot afford are refused before their {@code 200}: each open tunnel reserves
 * {@code bytes-per-tunnel}, the tunnels of one tenant at most {@code max-bytes-per-tenant} over every IP and all of
 * them {@code max-bytes}; past either, 429 {@code too-many-requests}, not contacted (App tries elsewhere, and no fault
 * is counted). Here two tunnels fit per tenant and three in all.
 */
@LocalBorderTest({
    "egress.border.id=border-memory",
    "egress.border.ips=127.0.0.5,127.0.0.6",
    BorderTestProperties.LOCAL,
    BorderTestProperties.LOOPBACK_TARGETS,
    "egress.tunnel.bytes-per-tunnel=128KB",
    "egress.tunnel.max-bytes-per-tenant=256KB",
    "egress.tunnel.max-bytes=384KB"
})
class TunnelMemoryTest {

    @LocalServerPort
    int port;

    private ServerSocket target;
    private final List<Socket> accepted = new CopyOnWriteArrayList<>();
    private final List<Disposable> tunnels = new CopyOnWriteArrayList<>();

    @BeforeEach
    void startTarget() throws IOException {
        target = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            try {
                while (true) {
                    accepted.add(target.accept()); // held open, silent
                }
            } catch (IOException e) {
                // the test ended
            }
        });
        acceptor.setDaemon(true);
        acceptor.start();
    }

    @AfterEach
    void stop() throws IOException {
        tunnels.forEach(Disposable::dispose);
        target.close();
        for (Socket socket : accepted) {
            socket.close();
        }
    }

    @Test
    void refusesATenantsTunnelPastItsBudgetOnAnyIpWhileAnotherTenantsIsAdmittedOnTheSameIp() {
        // acme's two tunnels on two IPs take its budget: a third on either IP is refused before its answer, whether
        // its IP is shared or dedicated, while another tenant's tunnel through the same IP is admitted.
        Opened first = open("127.0.0.5", "acme");
        Opened second = open("127.0.0.6", "acme");
        await().atMost(Duration.ofSeconds(30)).until(() -> first.status.get() == 200 && second.status.get() == 200);

        Opened third = open("127.0.0.5", "acme");
        await().atMost(Duration.ofSeconds(30)).until(() -> third.body.get() != null);
        assertThat(third.status.get()).isEqualTo(429);
        assertThat(third.body.get())
                .contains("urn:egress:problem:too-many-requests")
                .contains("\"targetContacted\":false")
                .contains("tenant's tunnel memory");

        Opened other = open("127.0.0.5", "small-co");
        await().atMost(Duration.ofSeconds(30)).until(() -> other.status.get() == 200);

        first.tunnel.dispose();
        openedOnceReleased("127.0.0.6", "acme");
    }

    @Test
    void refusesATunnelPastTheBordersBudgetBeforeItsAnswerAndTakesOneAgainOnceOneEnds() {
        Opened first = open("127.0.0.5", "acme");
        Opened second = open("127.0.0.5", "small-co");
        Opened third = open("127.0.0.6", "globex");
        await().atMost(Duration.ofSeconds(30))
                .until(() -> first.status.get() == 200 && second.status.get() == 200 && third.status.get() == 200);

        Opened fourth = open("127.0.0.6", "initech");
        await().atMost(Duration.ofSeconds(30)).until(() -> fourth.body.get() != null);
        assertThat(fourth.status.get()).isEqualTo(429);
        assertThat(fourth.body.get())
                .contains("urn:egress:problem:too-many-requests")
                .contains("\"targetContacted\":false")
                .contains("this Border's tunnel memory");

        first.tunnel.dispose();
        openedOnceReleased("127.0.0.6", "initech");
    }

    /**
     * Opens tunnels until one is answered 200: the Border gives the ended tunnel's budget back when it has seen the
     * stream's reset, which may come after the next tunnel's request, so a 429 in between is not a failure.
     */
    private void openedOnceReleased(String ip, String tenant) {
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    Opened again = open(ip, tenant);
                    await().atMost(Duration.ofSeconds(10)).until(() -> again.status.get() != 0);
                    if (again.status.get() != 200) {
                        again.tunnel.dispose();
                        return false;
                    }
                    return true;
                });
    }

    private record Opened(Disposable tunnel, AtomicInteger status, AtomicReference<String> body) {}

    private Opened open(String ip, String tenant) {
        Sinks.Many<ByteBuf> up = Sinks.many().unicast().onBackpressureBuffer();
        AtomicInteger status = new AtomicInteger();
        AtomicReference<String> body = new AtomicReference<>();
        Disposable tunnel = HttpClient.create()
                .protocol(HttpProtocol.H2C)
                .headers(h -> h.set("Authorization", "Bearer " + Tokens.INTERNAL)
                        .set("Content-Type", "application/octet-stream")
                        .set(TunnelCall.SOURCE_IP_HEADER, ip)
                        .set(TunnelCall.TENANT_HEADER, tenant)
                        .set(TunnelCall.TARGET_HEADER, "127.0.0.1:" + target.getLocalPort()))
                .post()
                .uri("http://127.0.0.1:" + port + TunnelCall.PATH)
                .send(Flux.concat(Mono.just(Unpooled.EMPTY_BUFFER), up.asFlux()))
                .response((response, content) -> {
                    status.set(response.status().code());
                    if (response.status().code() == 200) {
                        return content.then();
                    }
                    return content.aggregate()
                            .asString(StandardCharsets.UTF_8)
                            .doOnNext(body::set)
                            .then();
                })
                .subscribe();
        tunnels.add(tunnel);
        return new Opened(tunnel, status, body);
    }
}
