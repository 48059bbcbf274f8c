package dev.egress.app.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class DeliveryAdmissionTest {

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final DeliveryAdmission admission = new DeliveryAdmission(5, 2, Duration.ofSeconds(3), meters);

    @Test
    void aTenantAtItsLimitIsRefusedWhileAnotherTenantIsAdmitted() {
        admission.admit("slow");
        admission.admit("slow");

        assertThatThrownBy(() -> admission.admit("slow")).isInstanceOfSatisfying(TooManyInFlightException.class, e -> {
            assertThat(e.status().value()).isEqualTo(429);
            assertThat(e.slug()).isEqualTo("too-many-in-flight");
            assertThat(e.retryAfter()).isEqualTo(Duration.ofSeconds(3));
            assertThat(e.properties()).containsEntry("limit", "tenant").containsEntry("maxInFlight", 2);
        });
        assertThat(admission.admit("other")).isNotNull();
        assertThat(admission.inFlight()).isEqualTo(3);
        assertThat(meters.get("egress.dispatch.admission.refused")
                        .tag("limit", "tenant")
                        .counter()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void theGlobalLimitRefusesEveryTenantAndARefusalTakesNothing() {
        for (String tenant : List.of("a", "a", "b", "b", "c")) {
            admission.admit(tenant);
        }
        assertThatThrownBy(() -> admission.admit("d"))
                .isInstanceOfSatisfying(
                        TooManyInFlightException.class,
                        e -> assertThat(e.properties())
                                .containsEntry("limit", "global")
                                .containsEntry("maxInFlight", 5));
        assertThat(admission.inFlight()).isEqualTo(5);
        assertThat(admission.inFlight("d")).isZero();
        assertThat(meters.get("egress.dispatch.in.flight").gauge().value()).isEqualTo(5);
    }

    @Test
    void aPermitIsGivenBackOnceHoweverOftenItIsReleased() {
        DeliveryAdmission.Permit first = admission.admit("t");
        admission.admit("t");
        first.release();
        first.release();
        first.release();

        assertThat(admission.inFlight("t")).isEqualTo(1);
        assertThat(admission.inFlight()).isEqualTo(1);
        admission.admit("t");
        assertThatThrownBy(() -> admission.admit("t")).isInstanceOf(TooManyInFlightException.class);
    }

    @Test
    void tenantsWithNothingInFlightLeaveNoTrace() {
        for (int i = 0; i < 1000; i++) {
            admission.admit("tenant-" + i).release();
        }
        assertThat(admission.tenantsInFlight()).isZero();
        assertThat(admission.inFlight()).isZero();
    }

    @Test
    void concurrentAdmitsNeverExceedTheLimitsAndAllReleasesBalance() throws Exception {
        DeliveryAdmission wide = new DeliveryAdmission(64, 16, Duration.ofSeconds(1), new SimpleMeterRegistry());
        ExecutorService pool = Executors.newFixedThreadPool(8);
        CountDownLatch done = new CountDownLatch(8);
        List<Throwable> violations = Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < 8; t++) {
            String tenant = "t" + (t % 3);
            pool.execute(() -> {
                try {
                    for (int i = 0; i < 5_000; i++) {
                        try {
                            DeliveryAdmission.Permit permit = wide.admit(tenant);
                            if (wide.inFlight(tenant) > 16 || wide.inFlight() > 64) {
                                violations.add(new AssertionError("over the limit"));
                            }
                            permit.release();
                        } catch (TooManyInFlightException refused) {
                            // expected under contention
                        }
                    }
                } finally {
                    done.countDown();
                }
            });
        }
        assertThat(done.await(60, TimeUnit.SECONDS)).isTrue();
        pool.shutdown();
        assertThat(violations).isEmpty();
        assertThat(wide.inFlight()).isZero();
        assertThat(wide.tenantsInFlight()).isZero();
    }

    @Test
    void byDefaultOneTenantHoldsTwoThousandSlowDeliveriesAndTheNextIsRefused() {
        DispatchProperties defaults = new Binder(new MapConfigurationPropertySource(Map.of()))
                .bindOrCreate("egress.dispatch", DispatchProperties.class);
        assertThat(defaults.maxInFlightPerTenant()).isEqualTo(2048);
        assertThat(defaults.maxInFlight()).isEqualTo(4096);
        DeliveryAdmission byDefault = new DeliveryAdmission(
                defaults.maxInFlight(),
                defaults.maxInFlightPerTenant(),
                Duration.ofSeconds(1),
                new SimpleMeterRegistry());

        // 1,000 deliveries to targets answering after 1 s (the slow-target benchmark) were refused at 129 before.
        for (int i = 0; i < 2048; i++) {
            byDefault.admit("acme");
        }
        assertThatThrownBy(() -> byDefault.admit("acme"))
                .isInstanceOfSatisfying(
                        TooManyInFlightException.class,
                        e -> assertThat(e.properties())
                                .containsEntry("limit", "tenant")
                                .containsEntry("maxInFlight", 2048));
        assertThat(byDefault.admit("other"))
                .as("the App's other half stays for other tenants")
                .isNotNull();
    }
}
