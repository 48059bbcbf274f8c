package dev.egress.border.egress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.discovery.registry.EgressIp;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

class AdmissionTest {

    private final EgressIp a = EgressIp.of("127.0.0.2");
    private final EgressIp b = EgressIp.of("127.0.0.3");
    private final Admission admission = new Admission(List.of(a, b), 2);

    @Test
    void limitsEachIpSeparately() {
        assertThat(admission.tryEnter(a)).isEqualTo(Admission.Entry.ADMITTED);
        assertThat(admission.tryEnter(a)).isEqualTo(Admission.Entry.ADMITTED);
        assertThat(admission.tryEnter(a)).isEqualTo(Admission.Entry.LIMIT_REACHED);
        assertThat(admission.tryEnter(b)).isEqualTo(Admission.Entry.ADMITTED);
        admission.exit(a);
        assertThat(admission.tryEnter(a)).isEqualTo(Admission.Entry.ADMITTED);
        assertThat(admission.total()).isEqualTo(3);
    }

    @Test
    void givesTheSlotBackWhenTheCallThrowsWhileItIsBuilt() {
        Admission one = new Admission(List.of(a), 1);
        assertThat(one.tryEnter(a)).isEqualTo(Admission.Entry.ADMITTED);

        // What Netty does with a header value it refuses: it throws when the request is assembled.
        StepVerifier.create(one.<String>holding(a, () -> {
                    throw new IllegalArgumentException("Validation failed for header 'X-Sig'");
                }))
                .verifyError(IllegalArgumentException.class);

        assertThat(one.inFlight(a)).isZero();
        assertThat(one.tryEnter(a)).isEqualTo(Admission.Entry.ADMITTED);
    }

    @Test
    void givesTheSlotBackOnceWhenTheCallSucceedsFailsOrIsCancelled() {
        Admission one = new Admission(List.of(a), 1);

        one.tryEnter(a);
        StepVerifier.create(one.holding(a, () -> Mono.just("ok")))
                .expectNext("ok")
                .verifyComplete();
        assertThat(one.inFlight(a)).isZero();

        one.tryEnter(a);
        StepVerifier.create(one.holding(a, () -> Mono.error(new IllegalStateException("target gone"))))
                .verifyError(IllegalStateException.class);
        assertThat(one.inFlight(a)).isZero();

        one.tryEnter(a);
        StepVerifier.create(one.holding(a, Mono::never)).thenCancel().verify();
        assertThat(one.inFlight(a)).isZero();
        assertThat(one.total()).isZero();
    }

    @Test
    void drainRefusesNewCallsAndReturnsWhenTheLastOneExits() throws Exception {
        admission.tryEnter(a);
        CompletableFuture<Boolean> drained = CompletableFuture.supplyAsync(() -> {
            try {
                return admission.drain(Duration.ofSeconds(60));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(admission::draining);
        assertThat(admission.tryEnter(b)).isEqualTo(Admission.Entry.DRAINING);
        assertThat(drained).isNotDone();

        admission.exit(a);

        assertThat(drained.get()).isTrue();
    }

    @Test
    void drainGivesUpAtTheTimeoutWhenCallsAreStuck() throws Exception {
        admission.tryEnter(a);
        assertThat(admission.drain(Duration.ofMillis(200))).isFalse();
    }
}
