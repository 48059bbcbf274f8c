package dev.egress.app.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DeliveryStorePropertiesTest {

    @Test
    void theTokenNeverAppearsInTheTextAndOffIsAnEmptyConnectionString() {
        DeliveryStoreProperties on = new DeliveryStoreProperties("grpc://127.0.0.1:2136/local", "s3cret", "", "p_", 4);

        assertThat(on.toString()).doesNotContain("s3cret").contains("(set)");
        assertThat(on.enabled()).isTrue();
        assertThat(new DeliveryStoreProperties(" ", "", "", "", 16).enabled()).isFalse();
    }

    @Test
    void refusesBothATokenAndATokenFileAndNoSessions() {
        assertThatThrownBy(() -> new DeliveryStoreProperties("grpc://h:1/db", "t", "/f", "", 16))
                .hasMessageContaining("egress.delivery.store.token and token-file");
        assertThatThrownBy(() -> new DeliveryStoreProperties("grpc://h:1/db", "", "", "", 0))
                .hasMessageContaining("egress.delivery.store.sessions");
    }
}
