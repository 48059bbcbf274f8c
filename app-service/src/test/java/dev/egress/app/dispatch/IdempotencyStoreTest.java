package dev.egress.app.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.app.EgressProblemException;
import dev.egress.app.routing.NoEgressAvailableException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

class IdempotencyStoreTest {

    private final AtomicLong now = new AtomicLong();
    private final IdempotencyStore store = new IdempotencyStore(Duration.ofHours(24), 3, now::get, new SimpleMeterRegistry());
    private final AtomicInteger sent = new AtomicInteger();
    private static final byte[] FP = {1};

    private static DeliveryResponse response(String id) {
        return new DeliveryResponse(id, "t", "127.0.0.2", "a", new DeliveryResponse.TargetResponse(200, 1, Map.of(), null, null), List.of());
    }

    private Mono<DeliveryResponse> send(String id) {
        return Mono.fromSupplier(() -> {
            sent.incrementAndGet();
            return response(id);
        });
    }

    @Test
    void aRepeatWithinTheWindowReplaysWithoutSending() {
        StepVerifier.create(store.run("k", FP, () -> send("1")).outcome()).expectNextMatches(r -> r.id().equals("1")).verifyComplete();
        IdempotencyStore.Result again = store.run("k", FP, () -> send("2"));
        assertThat(again.replayed()).isTrue();
        StepVerifier.create(again.outcome()).expectNextMatches(r -> r.id().equals("1")).verifyComplete();
        assertThat(sent).hasValue(1);

        now.addAndGet(Duration.ofHours(24).toNanos());
        StepVerifier.create(store.run("k", FP, () -> send("3")).outcome()).expectNextMatches(r -> r.id().equals("3")).verifyComplete();
    }

    @Test
    void concurrentDuplicatesWaitForTheFirst() {
        Sinks.One<DeliveryResponse> slow = Sinks.one();
        IdempotencyStore.Result first = store.run("k", FP, slow::asMono);
        IdempotencyStore.Result second = store.run("k", FP, () -> send("never"));
        slow.tryEmitValue(response("1"));
        StepVerifier.create(second.outcome()).expectNextMatches(r -> r.id().equals("1")).verifyComplete();
        StepVerifier.create(first.outcome()).expectNextMatches(r -> r.id().equals("1")).verifyComplete();
        assertThat(sent).hasValue(0);
    }

    @Test
    void failuresThatSentNothingAreForgottenOthersAreReplayed() {
        NoEgressAvailableException none = new NoEgressAvailableException("x", "no-live-ip", Duration.ofSeconds(5), Map.of());
        StepVerifier.create(store.run("a", FP, () -> Mono.error(none)).outcome()).verifyError(NoEgressAvailableException.class);
        StepVerifier.create(store.run("a", FP, () -> send("1")).outcome()).expectNextCount(1).verifyComplete();

        EgressProblemException timeout = new DeliveryFailedException(HttpStatus.GATEWAY_TIMEOUT, "target-timeout", "x",
                Map.of("targetContacted", true), null);
        StepVerifier.create(store.run("b", FP, () -> Mono.error(timeout)).outcome()).verifyError(DeliveryFailedException.class);
        StepVerifier.create(store.run("b", FP, () -> send("2")).outcome()).verifyError(DeliveryFailedException.class);
        assertThat(sent).hasValue(1);
    }

    @Test
    void aKeyReusedForAnotherRequestIsRefused() {
        store.run("k", FP, () -> send("1")).outcome().block();
        StepVerifier.create(store.run("k", new byte[] {2}, () -> send("2")).outcome())
                .verifyErrorMatches(e -> ((EgressProblemException) e).slug().equals(IdempotencyStore.KEY_REUSED));
    }

    @Test
    void isBoundedEvictingTheOldest() {
        for (String key : List.of("1", "2", "3", "4")) {
            store.run(key, FP, () -> send(key)).outcome().block();
        }
        assertThat(store.size()).isEqualTo(3);
        assertThat(store.run("1", FP, () -> send("1b")).replayed()).isFalse();
    }
}
