package dev.egress.app.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The proxy's meters keep the names and tags dashboards and alerts cite, in the shared shape (tagged kind=tunnel). */
class ProxyMetricsTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ProxyMetrics metrics = new ProxyMetrics(registry, new TunnelLimits(4, 4));

    @Test
    void countsRefusalsByProblemSlugOrOwnReasonUnderTheTunnelKind() {
        metrics.refused("no-egress-available", "dedicated");
        metrics.refused("no-egress-available", "dedicated");
        metrics.refused("port-not-allowed", "shared");

        assertThat(registry.get("egress.proxy.tunnels.refused")
                        .tags("kind", "tunnel", "outcome", "no-egress-available", "tenant_class", "dedicated")
                        .counter()
                        .count())
                .isEqualTo(2);
        assertThat(registry.get("egress.proxy.tunnels.refused")
                        .tags("kind", "tunnel", "outcome", "port-not-allowed", "tenant_class", "shared")
                        .counter()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void recordsATunnelFromOpenToEnd() {
        metrics.opened("dedicated", "203.0.113.10");
        metrics.connected("203.0.113.10", Duration.ofMillis(12));
        metrics.ended(new ProxyMetrics.TunnelRecord(
                "acme", "example.com:443", "203.0.113.10", "border-a", 10, 20, 5, "target-closed"));

        assertThat(registry.get("egress.proxy.tunnels.opened")
                        .tags("tenant_class", "dedicated", "ip", "203.0.113.10")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("egress.proxy.tunnel.connect").timer().count()).isEqualTo(1);
        assertThat(registry.get("egress.proxy.tunnels.closed")
                        .tags("reason", "target-closed")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("egress.proxy.tunnel.bytes")
                        .tags("direction", "down")
                        .summary()
                        .totalAmount())
                .isEqualTo(20);
        assertThat(registry.get("egress.proxy.tunnels.active").gauge().value()).isZero();
    }
}
