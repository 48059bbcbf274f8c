package dev.egress.app.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProxyPropertiesTest {

    private static ProxyProperties with(int port, List<String> ports, Duration idle, int perTenant) {
        return new ProxyProperties(
                true,
                "127.0.0.1",
                port,
                " ",
                Duration.ofSeconds(10),
                idle,
                Duration.ofHours(1),
                perTenant,
                1024,
                ports,
                Duration.ofSeconds(10),
                List.of());
    }

    @Test
    void portsWebhooksUseAreAllowedByDefaultAndTheOperatorAddsPortsOrRanges() {
        ProxyProperties defaults = with(3128, List.of(), Duration.ofMinutes(5), 1);
        assertThat(defaults.allows(443)).isTrue();
        assertThat(defaults.allows(80)).isTrue();
        assertThat(defaults.allows(25)).isFalse();
        assertThat(defaults.allows(22)).isFalse();
        ProxyProperties added = with(3128, List.of("8443", " 9000-9010 "), Duration.ofMinutes(5), 1);
        assertThat(added.allows(443)).isTrue();
        assertThat(added.allows(80)).isTrue();
        assertThat(added.allows(8443)).isTrue();
        assertThat(added.allows(9010)).isTrue();
        assertThat(added.allows(9011)).isFalse();
        assertThat(added.sslBundle()).as("a blank bundle means plain HTTP").isNull();
    }

    @Test
    void refusesValuesThatCannotWorkNamingTheProperty() {
        assertThatThrownBy(() -> with(65536, List.of(), Duration.ofMinutes(5), 1))
                .hasMessageContaining("egress.proxy.port");
        assertThatThrownBy(() -> with(3128, List.of("0"), Duration.ofMinutes(5), 1))
                .hasMessageContaining("egress.proxy.allowed-ports");
        assertThatThrownBy(() -> with(3128, List.of("9000-80"), Duration.ofMinutes(5), 1))
                .hasMessageContaining("egress.proxy.allowed-ports")
                .hasMessageContaining("9000-80");
        assertThatThrownBy(() -> with(3128, List.of(), Duration.ZERO, 1))
                .hasMessageContaining("egress.proxy.idle-timeout");
        assertThatThrownBy(() -> with(3128, List.of(), Duration.ofMinutes(5), 0))
                .hasMessageContaining("egress.proxy.max-tunnels-per-tenant");
    }

    @Test
    void unauthenticatedSourcesAreOffByDefaultAndMustBeIpRanges() {
        assertThat(with(3128, List.of(), Duration.ofMinutes(5), 1).unauthenticatedRanges())
                .isEmpty();
        ProxyProperties open = new ProxyProperties(
                true,
                "127.0.0.1",
                3128,
                null,
                Duration.ofSeconds(10),
                Duration.ofMinutes(5),
                Duration.ofHours(1),
                1,
                1,
                List.of(),
                Duration.ofSeconds(10),
                List.of("10.0.0.0/8", " fd00::1 "));
        assertThat(open.unauthenticatedRanges())
                .containsExactly(SourceRange.parse("10.0.0.0/8"), SourceRange.parse("fd00::1/128"));
        assertThatThrownBy(() -> new ProxyProperties(
                        true,
                        "127.0.0.1",
                        3128,
                        null,
                        Duration.ofSeconds(10),
                        Duration.ofMinutes(5),
                        Duration.ofHours(1),
                        1,
                        1,
                        List.of(),
                        Duration.ofSeconds(10),
                        List.of("svix.internal")))
                .hasMessageContaining("egress.proxy.unauthenticated-sources")
                .hasMessageContaining("svix.internal");
    }
}
