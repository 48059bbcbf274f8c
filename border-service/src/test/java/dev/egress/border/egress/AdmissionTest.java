package dev.egress.border.egress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.web.problem.CallKind;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

class AdmissionTest {

    private final EgressIp a = EgressIp.of("127.0.0.2");
    private final EgressIp b = EgressIp.of("127.0.0.3");
    private final Admission admission = admission(List.of(a, b), 2);

    private static Admission admission(List<EgressIp> ips, int limit) {
        return new Admission(ips, Map.of(CallKind.FORWARD, limit, CallKind.TUNNEL, limit));
    }

    private Permit enter(Admission to, EgressIp ip) {
        return to.tryEnter(CallKind.FORWARD, ip).orElseThrow();
    }

    @Test
    void limitsEachIpSeparately() {
        Permit first = enter(admission, a);
        enter(admission, a);
        assertThat(admission.tryEnter(CallKind.FORWARD, a)).isEmpty();
        enter(admission, b);
        first.release();
        enter(admission, a);
        assertThat(admission.total()).isEqualTo(3);
    }

    @Test
    void limitsEachKindSeparatelyAndCountsBothInTheTotal() {
        enter(admission, a);
        enter(admission, a);
        Permit tunnel = admission.tryEnter(CallKind.TUNNEL, a).orElseThrow();
        assertThat(admission.inFlight(a)).isEqualTo(2);
        assertThat(admission.inFlight(CallKind.TUNNEL, a)).isEqualTo(1);
        assertThat(admission.total()).isEqualTo(3);
        tunnel.release();
        tunnel.release();
        assertThat(admission.total()).isEqualTo(2);
    }

    @Test
    void capsTunnelsOverEveryIpAndGivesThePlaceBackToTheCap() {
        Admission capped = new Admission(
                List.of(a, b), Map.of(CallKind.FORWARD, 2, CallKind.TUNNEL, 2), Map.of(CallKind.TUNNEL, 2));
        Permit first = capped.tryEnter(CallKind.TUNNEL, a).orElseThrow();
        capped.tryEnter(CallKind.TUNNEL, a).orElseThrow();

        assertThat(capped.tryEnter(CallKind.TUNNEL, b))
                .as("b's own places are free, the Border's are not")
                .isEmpty();
        assertThat(capped.atCap(CallKind.TUNNEL)).isTrue();
        assertThat(capped.inFlight(CallKind.TUNNEL, b)).isZero();
        assertThat(capped.tryEnter(CallKind.FORWARD, b))
                .as("forwards have no cap")
                .isPresent();

        first.release();
        assertThat(capped.tryEnter(CallKind.TUNNEL, b)).isPresent();
    }

    @Test
    void limitsATenantsTunnelsOverEveryIpWhileAnotherTenantStillGetsItsOwn() {
        Admission budget = new Admission(
                List.of(a, b), Map.of(CallKind.FORWARD, 8, CallKind.TUNNEL, 8), Map.of(CallKind.TUNNEL, 8), 2);
        Permit first = budget.tryEnter(CallKind.TUNNEL, a, "tenant acme").orElseThrow();
        budget.tryEnter(CallKind.TUNNEL, b, "tenant acme").orElseThrow();

        assertThat(budget.tryEnter(CallKind.TUNNEL, a, "tenant acme"))
                .as("acme's budget is taken, on either IP")
                .isEmpty();
        assertThat(budget.tryEnter(CallKind.TUNNEL, b, "tenant acme")).isEmpty();
        assertThat(budget.tenantFull("tenant acme")).isTrue();
        assertThat(budget.inFlight(CallKind.TUNNEL, a))
                .as("a refused tunnel holds no place")
                .isEqualTo(1);
        assertThat(budget.tryEnter(CallKind.TUNNEL, a, "tenant small-co"))
                .as("another tenant on the same IP")
                .isPresent();

        first.release();
        first.release();
        assertThat(budget.ofTenant("tenant acme")).isEqualTo(1);
        assertThat(budget.tryEnter(CallKind.TUNNEL, a, "tenant acme")).isPresent();
    }

    @Test
    void givesTheSlotBackWhenTheCallThrowsWhileItIsBuilt() {
        Admission one = admission(List.of(a), 1);
        Permit permit = enter(one, a);

        // What Netty does with a header value it refuses: it throws when the request is assembled.
        StepVerifier.create(permit.<String>holding(() -> {
                    throw new IllegalArgumentException("Validation failed for header 'X-Sig'");
                }))
                .verifyError(IllegalArgumentException.class);

        assertThat(one.inFlight(a)).isZero();
        assertThat(one.tryEnter(CallKind.FORWARD, a)).isPresent();
    }

    @Test
    void givesTheSlotBackOnceWhenTheCallSucceedsFailsOrIsCancelled() {
        Admission one = admission(List.of(a), 1);

        StepVerifier.create(enter(one, a).holding(() -> Mono.just("ok")))
                .expectNext("ok")
                .verifyComplete();
        assertThat(one.inFlight(a)).isZero();

        StepVerifier.create(enter(one, a).holding(() -> Mono.error(new IllegalStateException("target gone"))))
                .verifyError(IllegalStateException.class);
        assertThat(one.inFlight(a)).isZero();

        StepVerifier.create(enter(one, a).holding(Mono::never)).thenCancel().verify();
        assertThat(one.inFlight(a)).isZero();
        assertThat(one.total()).isZero();
    }

    @Test
    void drainWaitsForBothKindsAndClosesTunnelsLeftAtTheTimeout() throws Exception {
        Permit forward = enter(admission, a);
        Permit tunnel = admission.tryEnter(CallKind.TUNNEL, b).orElseThrow();
        AtomicBoolean closed = new AtomicBoolean();
        tunnel.closeAtDrainTimeout(() -> closed.set(true));
        forward.release();

        assertThat(admission.drain(Duration.ofMillis(200))).isFalse();

        assertThat(closed).isTrue();
        tunnel.release();
        assertThat(admission.total()).isZero();
    }

    @Test
    void drainRefusesNewCallsAndReturnsWhenTheLastOneExits() throws Exception {
        Permit inFlight = enter(admission, a);
        CompletableFuture<Boolean> drained = CompletableFuture.supplyAsync(() -> {
            try {
                return admission.drain(Duration.ofSeconds(60));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(admission::draining);
        assertThat(drained).isNotDone();

        inFlight.release();

        assertThat(drained.get()).isTrue();
    }

    @Test
    void drainGivesUpAtTheTimeoutWhenCallsAreStuck() throws Exception {
        enter(admission, a);
        assertThat(admission.drain(Duration.ofMillis(200))).isFalse();
    }
}
