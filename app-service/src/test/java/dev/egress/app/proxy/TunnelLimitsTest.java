package dev.egress.app.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TunnelLimitsTest {

    @Test
    void holdsEachTenantAndEachIpToItsLimitAndCountsTheOpenTunnels() {
        TunnelLimits limits = new TunnelLimits(2, 1);

        assertThat(limits.tryTenant("acme")).isTrue();
        assertThat(limits.tryTenant("acme")).isTrue();
        assertThat(limits.tryTenant("acme")).isFalse();
        assertThat(limits.tryTenant("globex")).isTrue();
        assertThat(limits.total()).isEqualTo(3);
        limits.releaseTenant("acme");
        assertThat(limits.total()).isEqualTo(2);
        assertThat(limits.tryTenant("acme")).isTrue();

        assertThat(limits.tryIp("127.0.0.3")).isTrue();
        assertThat(limits.tryIp("127.0.0.3")).isFalse();
        assertThat(limits.openFrom("127.0.0.3")).isEqualTo(1);
        assertThat(limits.total()).isEqualTo(3);
        limits.releaseIp("127.0.0.3");
        assertThat(limits.openFrom("127.0.0.3")).isZero();
        assertThat(limits.tryIp("127.0.0.3")).isTrue();
        assertThat(limits.openFrom("127.0.0.9")).isZero();
    }
}
