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
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.HttpProtocol;
import reactor.netty.http.server.HttpServer;

/**
 * App reads a Border's answer under {@code egress.dispatch.max-border-answer-size}: a larger answer fails the
 * attempt as a Border fault instead of filling App's memory, whether the Border declares its length or
 * streams it in chunks, over HTTP/2 or HTTP/1.1. The stand-in Border is a real Reactor Netty server.
 */
class BorderAnswerCapTest {

    /** What the stand-in Border sends: a declared-length body, or the same in chunks without a length. */
    private record Answer(byte[] body, boolean chunked) {}

    private final AtomicReference<Answer> answer = new AtomicReference<>();
    private DisposableServer border;

    @BeforeEach
    void startBorder() {
        border = HttpServer.create()
                .host("127.0.0.1")
                .port(0)
                .protocol(HttpProtocol.HTTP11, HttpProtocol.H2C)
                .handle((request, response) -> request.receive().then().then(Mono.defer(() -> {
                    Answer next = answer.get();
                    response.header("Content-Type", "application/json");
                    if (next.chunked()) {
                        int half = next.body().length / 2;
                        return response.sendByteArray(Flux.just(
                                        Arrays.copyOfRange(next.body(), 0, half),
                                        Arrays.copyOfRange(next.body(), half, next.body().length)))
                                .then();
                    }
                    return response.header("Content-Length", String.valueOf(next.body().length))
                            .sendByteArray(Mono.just(next.body()))
                            .then();
                })))
                .bindNow();
    }

    @AfterEach
    void stopBorder() {
        border.disposeNow();
    }

    private static byte[] forwardResponse(String jsonBodyText) {
        return ("{\"deliveryId\":\"d\",\"sourceIp\":\"127.0.0.2\",\"borderId\":\"border-a\",\"status\":200,"
                        + "\"headers\":{},\"body\":\"" + jsonBodyText + "\",\"bodyTruncated\":false,\"latencyMs\":1}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private AttemptResult call(Map<String, String> properties, byte[] body, boolean chunked) {
        answer.set(new Answer(body, chunked));
        URI endpoint = URI.create("http://127.0.0.1:" + border.port());
        try (FleetCalls clients = FleetCalls.of(properties)) {
            clients.retain(RoutingSnapshot.fromAnnouncements(
                    List.of(Announcement.initial(
                            BorderId.of("border-a"),
                            endpoint,
                            List.of(new AnnouncedIp(EgressIp.of("127.0.0.2"), IpStatus.ACTIVE)),
                            Instant.now())),
                    Instant.now()));
            Route route = new Route(EgressIp.of("127.0.0.2"), BorderId.of("border-a"), endpoint, IpStatus.ACTIVE);
            return clients.call(
                            route,
                            "{}".getBytes(StandardCharsets.UTF_8),
                            new ForwardDeadline(System.currentTimeMillis() + 60_000))
                    .block();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"true", "false"})
    void failsAnAnswerOverTheCapAsABorderFaultWhetherItsLengthIsDeclaredOrNot(String http2) {
        Map<String, String> properties =
                Map.of("egress.dispatch.max-border-answer-size", "4KB", "egress.dispatch.border-http2", http2);
        byte[] large = forwardResponse("x".repeat(8 * 1024));

        for (boolean chunked : new boolean[] {false, true}) {
            AttemptResult result = call(properties, large, chunked);

            assertThat(result.kind()).as("chunked: %s", chunked).isEqualTo(AttemptResult.Kind.BORDER_ERROR);
            assertThat(result.borderFault()).isTrue();
            // The Border answered, so the target may have been reached: never sent again.
            assertThat(result.targetContacted()).isTrue();
            assertThat(result.retryable()).isFalse();
            assertThat(result.detail()).contains("max-border-answer-size").contains("4096 bytes");
        }
        assertThat(call(properties, forwardResponse("small"), true).kind()).isEqualTo(AttemptResult.Kind.DELIVERED);
    }

    @ParameterizedTest
    @ValueSource(strings = {"true", "false"})
    void readsTheLargestAnswerABorderSendsByDefault(String chunked) {
        // The Border keeps 64KB of a target's body (egress.limits.max-response-body); every byte a control
        // character is the worst case of JSON escaping, six bytes each.
        AttemptResult result =
                call(Map.of(), forwardResponse("\\u0001".repeat(64 * 1024)), Boolean.parseBoolean(chunked));

        assertThat(result.kind()).as(result.detail()).isEqualTo(AttemptResult.Kind.DELIVERED);
        assertThat(result.response().body()).hasSize(64 * 1024);
    }
}
