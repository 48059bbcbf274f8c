package dev.egress.app.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.app.EgressProblemException;
import dev.egress.app.attempts.DeliveryFailedException;
import dev.egress.app.routing.NoEgressAvailableException;
import dev.egress.app.routing.NoEgressReason;
import dev.egress.app.tenants.UnknownTenantException;
import dev.egress.discovery.web.problem.Problem;
import dev.egress.discovery.web.problem.ProblemType;
import dev.egress.discovery.web.problem.TargetContact;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.util.unit.DataSize;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

class IdempotencyStoreTest {

    private static final byte[] FP = {1};

    private final AtomicLong now = new AtomicLong();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final IdempotencyStore store = store(DataSize.ofMegabytes(1), DataSize.ofKilobytes(4));
    private final AtomicInteger sent = new AtomicInteger();

    private IdempotencyStore store(DataSize maxSize, DataSize maxBody) {
        return new IdempotencyStore(
                new DispatchProperties.Idempotency(Duration.ofHours(24), maxSize, maxBody),
                now::get,
                new SimpleMeterRegistry());
    }

    private static DeliveryResponse response(String id, String body) {
        return new DeliveryResponse(
                id,
                "t",
                "127.0.0.2",
                "a",
                new DeliveryResponse.TargetResponse(200, 1, Map.of("Content-Type", "text/plain"), body, null, null),
                List.of());
    }

    private Mono<DeliveryResponse> send(String id) {
        return send(id, null);
    }

    private Mono<DeliveryResponse> send(String id, String body) {
        return Mono.fromSupplier(() -> {
            sent.incrementAndGet();
            return response(id, body);
        });
    }

    private static EgressProblemException failure(HttpStatus status, String slug, boolean contacted) {
        return new DeliveryFailedException(Problem.of(ProblemType.ofSlug(slug), "x")
                .withStatus(status)
                .withTargetContact(TargetContact.of(contacted)));
    }

    @Test
    void aRepeatWithinTheWindowReplaysWithoutSending() {
        StepVerifier.create(store.run("k", FP, () -> send("1")).outcome())
                .expectNextMatches(r -> r.id().equals("1"))
                .verifyComplete();
        IdempotencyStore.Result again = store.run("k", FP, () -> send("2"));
        assertThat(again.replayed()).isTrue();
        StepVerifier.create(again.outcome())
                .expectNextMatches(r -> r.id().equals("1"))
                .verifyComplete();
        assertThat(sent).hasValue(1);

        now.addAndGet(Duration.ofHours(24).toNanos());
        StepVerifier.create(store.run("k", FP, () -> send("3")).outcome())
                .expectNextMatches(r -> r.id().equals("3"))
                .verifyComplete();
    }

    @Test
    void concurrentDuplicatesWaitForTheFirst() {
        Sinks.One<DeliveryResponse> slow = Sinks.one();
        IdempotencyStore.Result first = store.run("k", FP, slow::asMono);
        IdempotencyStore.Result second = store.run("k", FP, () -> send("never"));
        slow.tryEmitValue(response("1", null));
        StepVerifier.create(second.outcome())
                .expectNextMatches(r -> r.id().equals("1"))
                .verifyComplete();
        StepVerifier.create(first.outcome())
                .expectNextMatches(r -> r.id().equals("1"))
                .verifyComplete();
        assertThat(sent).hasValue(0);
    }

    @Test
    void onlyOutcomesThatContactedTheTargetAreRemembered() {
        List<EgressProblemException> nothingSent = List.of(
                new NoEgressAvailableException("x", NoEgressReason.NO_LIVE_IP, Duration.ofSeconds(5)),
                new UnknownTenantException("nobody"),
                failure(HttpStatus.FORBIDDEN, "target-denied", false),
                failure(HttpStatus.BAD_GATEWAY, "target-unreachable", false),
                new TooManyInFlightException(TooManyInFlightException.Limit.TENANT, 2, Duration.ofSeconds(5)));
        for (EgressProblemException error : nothingSent) {
            String key = "none-" + error.slug();
            StepVerifier.create(store.run(key, FP, () -> Mono.error(error)).outcome())
                    .verifyError(error.getClass());
            assertThat(store.contains(key)).as(error.slug()).isFalse();
            StepVerifier.create(store.run(key, FP, () -> send(key)).outcome())
                    .expectNextCount(1)
                    .verifyComplete();
        }
        assertThat(sent).hasValue(nothingSent.size());

        EgressProblemException timeout = failure(HttpStatus.GATEWAY_TIMEOUT, "target-timeout", true);
        StepVerifier.create(store.run("b", FP, () -> Mono.error(timeout)).outcome())
                .verifyError(DeliveryFailedException.class);
        IdempotencyStore.Result again = store.run("b", FP, () -> send("2"));
        assertThat(again.replayed()).isTrue();
        StepVerifier.create(again.outcome()).verifyErrorMatches(e -> e == timeout);
        assertThat(sent).hasValue(nothingSent.size());
    }

    @Test
    void aDeliveryThatCannotEvenStartLeavesTheKeyFree() {
        StepVerifier.create(store.run("broken", FP, () -> {
                            throw new IllegalStateException("no delivery");
                        })
                        .outcome())
                .verifyError(IllegalStateException.class);
        assertThat(store.contains("broken")).isFalse();
        StepVerifier.create(store.run("broken", FP, () -> send("1")).outcome())
                .expectNextCount(1)
                .verifyComplete();
    }

    @Test
    void aKeyReusedForAnotherRequestIsRefused() {
        store.run("k", FP, () -> send("1")).outcome().block();
        StepVerifier.create(store.run("k", new byte[] {2}, () -> send("2")).outcome())
                .verifyErrorMatches(
                        e -> ((EgressProblemException) e).slug().equals(ProblemType.IDEMPOTENCY_KEY_REUSED.slug()));
    }

    @Test
    void isBoundedInBytesNotInEntries() {
        IdempotencyStore small = store(DataSize.ofKilobytes(64), DataSize.ofKilobytes(4));
        String body = "x".repeat(4000);
        for (int i = 0; i < 200; i++) {
            String id = "id-" + i;
            small.run("key-" + i, FP, () -> send(id, body)).outcome().block();
        }
        assertThat(small.weight()).isLessThanOrEqualTo(64 * 1024);
        assertThat(small.size()).isBetween(1L, 20L);
        // Small outcomes: many more fit in the same bytes.
        IdempotencyStore tiny = store(DataSize.ofKilobytes(64), DataSize.ofKilobytes(4));
        for (int i = 0; i < 200; i++) {
            String id = "id-" + i;
            tiny.run("key-" + i, FP, () -> send(id, "ok")).outcome().block();
        }
        assertThat(tiny.weight()).isLessThanOrEqualTo(64 * 1024);
        assertThat(tiny.size()).isGreaterThan(small.size() * 4);
    }

    @Test
    void aLongBodyIsKeptCutWithTheDigestOfTheWholeBody() throws Exception {
        String body = "é".repeat(3000) + "end"; // 6003 UTF-8 bytes, cut at 4096 would split a character
        DeliveryResponse first =
                store.run("long", FP, () -> send("1", body)).outcome().block();
        assertThat(first.response().body()).isEqualTo(body);
        assertThat(first.response().bodyTruncated()).isNull();
        assertThat(first.response().bodySha256()).isNull();

        DeliveryResponse replay =
                store.run("long", FP, () -> send("2", body)).outcome().block();

        byte[] kept = replay.response().body().getBytes(StandardCharsets.UTF_8);
        assertThat(kept.length).isLessThanOrEqualTo(4096).isGreaterThan(4090);
        assertThat(body).startsWith(replay.response().body());
        assertThat(replay.response().bodyTruncated()).isTrue();
        assertThat(replay.response().bodySha256())
                .isEqualTo(HexFormat.of()
                        .formatHex(MessageDigest.getInstance("SHA-256").digest(body.getBytes(StandardCharsets.UTF_8))));
        assertThat(replay.response().status()).isEqualTo(200);
        assertThat(replay.response().headers()).containsEntry("Content-Type", "text/plain");
        assertThat(replay.id()).isEqualTo("1");
    }

    @Test
    void aShortBodyIsReplayedAsItWas() {
        store.run("short", FP, () -> send("1", "{\"ok\":true}")).outcome().block();
        DeliveryResponse replay =
                store.run("short", FP, () -> send("2", "other")).outcome().block();
        assertThat(replay.response().body()).isEqualTo("{\"ok\":true}");
        assertThat(replay.response().bodyTruncated()).isNull();
        assertThat(replay.response().bodySha256()).isNull();
    }
}
