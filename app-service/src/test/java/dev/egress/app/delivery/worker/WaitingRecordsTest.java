package dev.egress.app.delivery.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.app.delivery.DeliveryKey;
import dev.egress.app.delivery.DeliveryRecord;
import dev.egress.app.delivery.DeliveryStatus;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class WaitingRecordsTest {

    private static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");

    private static DeliveryRecord record(String id) {
        return new DeliveryRecord(
                DeliveryKey.of("acme", null, id),
                id,
                "fp",
                new byte[0],
                DeliveryStatus.DELIVERING,
                0,
                null,
                null,
                1,
                0,
                T0,
                T0);
    }

    @Test
    void aDestinationGetsItsWaitingRecordsOldestFirstAndNoOtherDestinations() {
        WaitingRecords waiting = new WaitingRecords(Duration.ofMinutes(1));
        waiting.hold("http://a:80", record("1"), T0);
        waiting.hold("http://b:80", record("2"), T0);
        waiting.hold("http://a:80", record("3"), T0);

        assertThat(waiting.size()).isEqualTo(3);
        assertThat(waiting.next("http://a:80").record().id()).isEqualTo("1");
        assertThat(waiting.next("http://a:80").record().id()).isEqualTo("3");
        assertThat(waiting.next("http://a:80")).isNull();
        assertThat(waiting.size()).isEqualTo(1);
        assertThat(waiting.takeAll()).extracting(DeliveryRecord::id).containsExactly("2");
        assertThat(waiting.size()).isZero();
    }

    @Test
    void aRecordThatWaitedLongerThanItsPatienceIsExpired() {
        WaitingRecords waiting = new WaitingRecords(Duration.ofMinutes(1));
        waiting.hold("http://a:80", record("1"), T0);
        WaitingRecords.Held held = waiting.next("http://a:80");

        assertThat(waiting.expired(held, T0.plusSeconds(60))).isFalse();
        assertThat(waiting.expired(held, T0.plusSeconds(61))).isTrue();
    }
}
