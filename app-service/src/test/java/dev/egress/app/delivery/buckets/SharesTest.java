package dev.egress.app.delivery.buckets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class SharesTest {

    @Test
    void targetsAddUpToEveryBucketAndDifferByAtMostOne() {
        for (int live = 1; live <= 70; live++) {
            int n = live;
            int[] targets = IntStream.range(0, live)
                    .map(rank -> Shares.target(64, n, rank))
                    .toArray();
            assertThat(IntStream.of(targets).sum()).as("%s Apps", live).isEqualTo(64);
            assertThat(IntStream.of(targets).max().orElseThrow()
                            - IntStream.of(targets).min().orElseThrow())
                    .isLessThanOrEqualTo(1);
        }
        assertThat(IntStream.range(0, 3).map(rank -> Shares.target(64, 3, rank)))
                .containsExactly(22, 21, 21);
    }

    @Test
    void eachAppStartsLookingInItsOwnRegion() {
        assertThat(IntStream.range(0, 3).map(rank -> Shares.firstTry(64, 3, rank)))
                .containsExactly(0, 21, 42);
        assertThatThrownBy(() -> Shares.target(64, 2, 2)).isInstanceOf(IllegalArgumentException.class);
    }
}
