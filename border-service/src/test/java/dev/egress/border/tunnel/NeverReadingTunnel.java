package dev.egress.border.tunnel;

import static org.awaitility.Awaitility.await;

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
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.springframework.boot.test.web.server.LocalServerPort;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.netty.http.HttpProtocol;
import reactor.netty.http.client.HttpClient;

/**
 * The set-up of the Border's tunnel-limit tests: a tunnel from 127.0.0.5 whose App side answers the headers and
 * never asks for a byte of the body, to a target that streams as fast as it can or stays silent, and how the target's
 * connection ended (what the target managed to write before the Border closed it).
 */
abstract class NeverReadingTunnel {

    @LocalServerPort
    int port;

    private ServerSocket server;
    private Disposable tunnel;
    private final CompletableFuture<Long> closedAfterWriting = new CompletableFuture<>();

    @AfterEach
    void stop() throws IOException {
        if (tunnel != null) {
            tunnel.dispose();
        }
        if (server != null) {
            server.close();
        }
    }

    /**
     * Starts the target and opens the tunnel to it.
     *
     * @param streams whether the target writes as fast as it can (else it stays silent)
     */
    void open(boolean streams) throws IOException {
        server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
        Thread thread = new Thread(() -> serve(streams));
        thread.setDaemon(true);
        thread.start();
        Sinks.Many<ByteBuf> up = Sinks.many().unicast().onBackpressureBuffer();
        AtomicInteger status = new AtomicInteger();
        tunnel = HttpClient.create()
                .protocol(HttpProtocol.H2C)
                .headers(h -> h.set("Authorization", "Bearer " + Tokens.INTERNAL)
                        .set("Content-Type", "application/octet-stream")
                        .set(TunnelCall.SOURCE_IP_HEADER, "127.0.0.5")
                        .set(TunnelCall.TARGET_HEADER, "127.0.0.1:" + server.getLocalPort()))
                .post()
                .uri("http://127.0.0.1:" + port + TunnelCall.PATH)
                .send(Flux.concat(Mono.just(Unpooled.EMPTY_BUFFER), up.asFlux()))
                .response((response, content) -> {
                    status.set(response.status().code());
                    return Mono.never();
                })
                .subscribe();
        await().atMost(Duration.ofSeconds(30)).until(() -> status.get() == 200);
    }

    /**
     * Waits until the Border closed the target's connection.
     *
     * @return the bytes the target wrote before that
     */
    long closedAfterWriting() throws Exception {
        return closedAfterWriting.get(30, TimeUnit.SECONDS);
    }

    private void serve(boolean streams) {
        long written = 0;
        try (Socket socket = server.accept()) {
            if (streams) {
                OutputStream out = socket.getOutputStream();
                byte[] chunk = new byte[16 * 1024];
                while (true) {
                    out.write(chunk);
                    written += chunk.length;
                }
            }
            InputStream in = socket.getInputStream();
            while (in.read() >= 0) {
                // silent: wait for the Border to close the connection
            }
        } catch (IOException e) {
            // closed by the Border (or by the test's end)
        }
        closedAfterWriting.complete(written);
    }
}
