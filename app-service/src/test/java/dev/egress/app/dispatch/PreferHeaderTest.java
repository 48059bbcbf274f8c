package dev.egress.app.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PreferHeaderTest {

    @Test
    void respondAsyncIsFoundAmongPreferencesInAnyCaseWithParameters() {
        assertThat(DeliveryController.respondAsync("respond-async")).isTrue();
        assertThat(DeliveryController.respondAsync("wait=10, Respond-Async")).isTrue();
        assertThat(DeliveryController.respondAsync("respond-async; x=1")).isTrue();
        assertThat(DeliveryController.respondAsync(null)).isFalse();
        assertThat(DeliveryController.respondAsync("return=minimal")).isFalse();
        assertThat(DeliveryController.respondAsync("respond-asynchronously")).isFalse();
    }
}
