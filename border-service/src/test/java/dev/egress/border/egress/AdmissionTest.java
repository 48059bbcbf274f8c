package dev.egress.border.egress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.discovery.EgressIp;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

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
