package dev.egress.app.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RetryBudgetTest {

    @Test
    void allowsABurstThenOnlyTheRatioOfDeliveries() {
        RetryBudget budget = new RetryBudget(0.2, 3);
        assertThat(budget.tryRetry()).isTrue();
        assertThat(budget.tryRetry()).isTrue();
        assertThat(budget.tryRetry()).isTrue();
        assertThat(budget.tryRetry()).isFalse();

        for (int i = 0; i < 10; i++) {
            budget.onDelivery();
        }
        assertThat(budget.available()).isEqualTo(2);
        assertThat(budget.tryRetry()).isTrue();
        assertThat(budget.tryRetry()).isTrue();
        assertThat(budget.tryRetry()).isFalse();
    }

    @Test
    void neverSavesMoreThanTheBurst() {
        RetryBudget budget = new RetryBudget(1.0, 2);
        for (int i = 0; i < 100; i++) {
            budget.onDelivery();
        }
        assertThat(budget.available()).isEqualTo(2);
    }

    @Test
    void validatesItsSettings() {
        assertThatThrownBy(() -> new RetryBudget(0, 1)).hasMessageContaining("ratio");
        assertThatThrownBy(() -> new RetryBudget(0.5, 0)).hasMessageContaining("burst");
    }
}
