package dev.egress.border.tunnel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.border.testing.BorderTestProperties;
import dev.egress.border.testing.LocalBorderTest;
import dev.egress.border.testing.Tokens;
import dev.egress.discovery.web.forward.TunnelCall;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.netty.http.HttpProtocol;
import reactor.netty.http.client.HttpClient;
import reactor.test.StepVerifier;

/**
 * A tunnel through the real endpoint, as App opens it (one h2c stream): the Border answers 200 before the target
 * says anything, splices both ways from a socket bound to the dedicated IP, outlives the server's request timeout
 * (here 1 s: a tunnel's request body lasts as long as the tunnel), and ends when App's side ends and the target
 * closes.
 */
@LocalBorderTest({
    "egress.border.id=border-splice",
    "egress.border.ips=127.0.0.5",
    "egress.server.request-timeout=1s",
    BorderTestProperties.LOCAL,
    BorderTestProperties.LOOPBACK_TARGETS
})
class TunnelSpliceTest {

    @LocalServerPort
    int port;

    private ServerSocket echo;
    private final ConcurrentLinkedQueue<String> peers = new ConcurrentLinkedQueue<>();

    @BeforeEach
    void startEcho() throws IOException {
        echo = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            try (Socket socket = echo.accept();
                    InputStream in = socket.getInputStream();
                    OutputStream out = socket.getOutputStream()) {
                peers.add(socket.getInetAddress().getHostAddress());
                byte[] buffer = new byte[1024];
                for (int n; (n = in.read(buffer)) > 0; ) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // the test ended
            }
        });
        acceptor.setDaemon(true);
        acceptor.start();
    }

    @AfterEach
    void stopEcho() throws IOException {
        echo.close();
    }

    @Test
    void splicesBothWaysFromTheDedicatedIpAndOutlivesTheRequestTimeout() {
        Sinks.Many<ByteBuf> up = Sinks.many().unicast().onBackpressureBuffer();
        AtomicInteger status = new AtomicInteger();
        Flux<String> down = HttpClient.create()
                .protocol(HttpProtocol.H2C)
                .headers(h -> h.set("Authorization", "Bearer " + Tokens.INTERNAL)
                        .set("Content-Type", "application/octet-stream")
                        .set(TunnelCall.SOURCE_IP_HEADER, "127.0.0.5")
                        .set(TunnelCall.TARGET_HEADER, "127.0.0.1:" + echo.getLocalPort()))
                .post()
                .uri("http://127.0.0.1:" + port + TunnelCall.PATH)
                .send(Flux.concat(Mono.just(Unpooled.EMPTY_BUFFER), up.asFlux()))
                .response((response, content) -> {
                    status.set(response.status().code());
                    return content.asString(StandardCharsets.UTF_8).filter(text -> !text.isEmpty());
                });

        StepVerifier.create(down)
                .then(() -> up.tryEmitNext(Unpooled.copiedBuffer("one", StandardCharsets.UTF_8)))
                .expectNext("one")
                // Past the server's request timeout (1 s), on purpose: the tunnel must still carry bytes.
                .thenAwait(Duration.ofMillis(1500))
                .then(() -> up.tryEmitNext(Unpooled.copiedBuffer("two", StandardCharsets.UTF_8)))
                .expectNext("two")
                .then(up::tryEmitComplete)
                .expectComplete()
                .verify(Duration.ofSeconds(30));
        assertThat(status.get()).isEqualTo(200);
        assertThat(peers).containsExactly("127.0.0.5");
    }
}
