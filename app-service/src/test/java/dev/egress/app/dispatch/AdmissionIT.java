package dev.egress.app.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.app.support.AppITSupport;
import dev.egress.app.support.BorderDouble;
import dev.egress.discovery.web.testing.RecordingSink;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.context.TestPropertySource;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * App's admission limits over real sockets: a tenant whose target holds its answers keeps at most
 * {@code max-in-flight-per-tenant} places, everything beyond is refused with 429 before a Border is
 * contacted, and another tenant on the same IP still gets through. Places come back on every outcome.
 */
@TestPropertySource(properties = {"egress.dispatch.max-in-flight=3", "egress.dispatch.max-in-flight-per-tenant=2"})
class AdmissionIT extends AppITSupport {

    private static final AtomicInteger SEQ = new AtomicInteger();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** What a client saw. */
    private record Answer(int status, String retryAfter, JsonNode body) {}

    @Autowired
    DeliveryAdmission admission;

    private RecordingSink sink;
    private HeldTarget held;
    private final List<BorderDouble> borders = new ArrayList<>();

    @BeforeEach
    void start() throws IOException {
        sink = RecordingSink.start();
        held = new HeldTarget();
    }

    @AfterEach
    void stop() {
        held.release();
        publish();
        borders.forEach(BorderDouble::close);
        held.close();
        sink.close();
    }

    private BorderDouble border(String... ips) {
        BorderDouble border =
                BorderDouble.start("adm-" + SEQ.incrementAndGet(), INTERNAL_TOKEN, Duration.ofSeconds(30), ips);
        borders.add(border);
        return border;
    }

    private WebClient web() {
        return WebClient.builder()
                .baseUrl("http://127.0.0.1:" + port)
                .defaultHeader("Authorization", "Bearer " + API_TOKEN)
                .build();
    }

    private Mono<Answer> post(String tenant, String url) {
        return web().post()
                .uri("/v1/deliveries")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("tenantId", tenant, "url", url, "payload", Map.of("n", 1)))
                .exchangeToMono(response -> response.bodyToMono(byte[].class)
                        .defaultIfEmpty(new byte[0])
                        .map(bytes -> new Answer(
                                response.statusCode().value(),
                                response.headers().asHttpHeaders().getFirst("Retry-After"),
                                bytes.length == 0 ? null : JSON.readTree(bytes))));
    }

    private Queue<Answer> fire(String tenant, int count) {
        Queue<Answer> answers = new ConcurrentLinkedQueue<>();
        Flux.range(0, count).flatMap(i -> post(tenant, held.url())).subscribe(answers::add);
        return answers;
    }

    @Test
    void aTenantWhoseTargetHoldsItsAnswersCannotStarveAnotherTenantOnTheSameIp() {
        // One shared IP with room for 4 calls at the Border: without App's limits the slow tenant fills it.
        BorderDouble a = border("127.0.0.8");
        a.limitPerIp(4);
        publish(a.announcement());

        Queue<Answer> slow = fire("small-co", 6);

        await().atMost(Duration.ofSeconds(30)).until(() -> slow.size() == 4 && held.arrived() == 2);
        assertThat(slow).allSatisfy(answer -> {
            assertThat(answer.status()).isEqualTo(429);
            assertThat(answer.retryAfter()).isEqualTo("5");
            assertThat(answer.body().get("type").stringValue()).isEqualTo("urn:egress:problem:too-many-in-flight");
            assertThat(answer.body().get("limit").stringValue()).isEqualTo("tenant");
            assertThat(answer.body().get("targetContacted").booleanValue()).isFalse();
        });
        assertThat(a.calls()).as("refused deliveries never reach a Border").isEqualTo(2);

        Answer other = post("tiny-co", sink.baseUri() + "/hook").block(Duration.ofSeconds(60));
        assertThat(other.status()).isEqualTo(200);
        assertThat(other.body().get("egressIp").stringValue()).isEqualTo("127.0.0.8");
        assertThat(sink.received()).hasSize(1);

        held.release();
        await().atMost(Duration.ofSeconds(30)).until(() -> slow.size() == 6);
        assertThat(slow).filteredOn(answer -> answer.status() == 200).hasSize(2);
        await().atMost(Duration.ofSeconds(10)).until(() -> admission.inFlight() == 0);
    }

    @Test
    void theGlobalLimitRefusesEveryTenantBeyondIt() {
        BorderDouble a = border("127.0.0.2", "127.0.0.8");
        publish(a.announcement());
        Queue<Answer> slow = fire("small-co", 2);
        Queue<Answer> acme = fire("acme", 1);
        await().atMost(Duration.ofSeconds(30)).until(() -> held.arrived() == 3);

        Answer refused = post("tiny-co", sink.baseUri() + "/hook").block(Duration.ofSeconds(60));

        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.retryAfter()).isEqualTo("5");
        assertThat(refused.body().get("type").stringValue()).isEqualTo("urn:egress:problem:too-many-in-flight");
        assertThat(refused.body().get("limit").stringValue()).isEqualTo("global");
        assertThat(sink.received()).isEmpty();
        held.release();
        await().atMost(Duration.ofSeconds(30)).until(() -> slow.size() == 2 && acme.size() == 1);
        assertThat(post("tiny-co", sink.baseUri() + "/hook")
                        .block(Duration.ofSeconds(60))
                        .status())
                .isEqualTo(200);
    }

    @Test
    void placesAreGivenBackOnSuccessErrorAndCancel() {
        BorderDouble a = border("127.0.0.8");
        publish(a.announcement());
        String hook = sink.baseUri() + "/hook";

        for (int i = 0; i < 3; i++) {
            assertThat(post("small-co", hook).block(Duration.ofSeconds(60)).status())
                    .isEqualTo(200);
        }
        for (int i = 0; i < 3; i++) {
            Answer answer = web().post()
                    .uri("/v1/deliveries")
                    .header("Idempotency-Key", "adm-" + SEQ.incrementAndGet())
                    .bodyValue(Map.of("tenantId", "small-co", "url", hook, "payload", i))
                    .exchangeToMono(r ->
                            r.releaseBody().thenReturn(new Answer(r.statusCode().value(), null, null)))
                    .block(Duration.ofSeconds(60));
            assertThat(answer.status()).isEqualTo(200);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> admission.inFlight() == 0);

        a.failWith(new BorderDouble.Failure(503, "unavailable", true));
        for (int i = 0; i < 3; i++) {
            assertThat(post("small-co", hook).block(Duration.ofSeconds(60)).status())
                    .isEqualTo(502);
        }
        a.failWith(new BorderDouble.Failure(403, "target-denied", false));
        for (int i = 0; i < 3; i++) {
            assertThat(post("small-co", hook).block(Duration.ofSeconds(60)).status())
                    .isEqualTo(403);
        }
        a.failWith(null);
        await().atMost(Duration.ofSeconds(10)).until(() -> admission.inFlight() == 0);

        // Clients that go away while the target holds the answer: the deliveries are cancelled.
        List<Disposable> gone = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            gone.add(post("small-co", held.url()).subscribe());
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> held.arrived() == 2);
        assertThat(admission.inFlight("small-co")).isEqualTo(2);
        gone.forEach(Disposable::dispose);
        await().atMost(Duration.ofSeconds(30)).until(() -> admission.inFlight() == 0);

        for (int i = 0; i < 3; i++) {
            assertThat(post("small-co", hook).block(Duration.ofSeconds(60)).status())
                    .isEqualTo(200);
        }
        // The place is given back just after the answer is written: converge, do not race.
        await().atMost(Duration.ofSeconds(10))
                .until(() -> admission.inFlight() == 0 && admission.tenantsInFlight() == 0);
    }

    /** A target on 127.0.0.1 that reads each request and answers only once released. */
    private static final class HeldTarget implements AutoCloseable {
        private final Sinks.Empty<Void> gate = Sinks.empty();
        private final AtomicInteger arrived = new AtomicInteger();
        private final DisposableServer server = HttpServer.create()
                .host("127.0.0.1")
                .port(0)
                .handle((request, response) -> request.receive()
                        .then()
                        .doOnSuccess(v -> arrived.incrementAndGet())
                        .then(gate.asMono())
                        .then(response.sendString(Mono.just("late")).then()))
                .bindNow();

        String url() {
            return "http://127.0.0.1:" + server.port() + "/held";
        }

        int arrived() {
            return arrived.get();
        }

        void release() {
            gate.tryEmitEmpty();
        }

        @Override
        public void close() {
            server.disposeNow(Duration.ofSeconds(5));
        }
    }
}
