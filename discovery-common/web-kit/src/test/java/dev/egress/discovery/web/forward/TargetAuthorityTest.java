package dev.egress.discovery.web.forward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TargetAuthorityTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "example.com:443",
                "hooks.example.test:8443",
                "a-b.c0.example:1",
                "localhost:80",
                "127.0.0.1:9999",
                "0.0.0.0:80",
                "[::1]:443",
                "[2001:db8::1]:65535",
                "[::ffff:127.0.0.1]:80"
            })
    void readsAHostAndAPort(String authority) {
        TunnelCall call = TargetAuthority.parse(authority);

        assertThat(call.authority()).isEqualTo(authority);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "127.0.0.1#x:9999",
                "evil.com#.example.test:9999",
                "evil.com/.example.test:443",
                "evil.com?.example.test:443",
                "user@example.com:443",
                "user:pass@example.com:443",
                "example..com:443",
                ".example.com:443",
                "example.com.:443",
                "-example.com:443",
                "example-.com:443",
                "exa_mple.com:443",
                "exa mple.com:443",
                "example%2ecom:443",
                "ex\u00e4mple.com:443",
                "1.2.3:443",
                "1.2.3.4.5:443",
                "010.0.0.1:443",
                "256.0.0.1:443",
                "0x7f.0.0.1:443",
                "2130706433:443",
                "[fe80::1%eth0]:443",
                "[127.0.0.1]:443",
                "[::1:443",
                "[]:443",
                ":443",
                "example.com:0",
                "example.com:65536",
                "example.com:+443",
                "example.com"
            })
    void refusesAnythingButAHostAndAPort(String authority) {
        assertThatThrownBy(() -> TargetAuthority.parse(authority)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aLabelOfSixtyFourCharactersIsNotAName() {
        assertThat(TargetAuthority.parse("a".repeat(63) + ".example:443").port())
                .isEqualTo(443);
        assertThatThrownBy(() -> TargetAuthority.parse("a".repeat(64) + ".example:443"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anAbsoluteFormAuthorityMayLeaveThePortOut() {
        assertThat(TargetAuthority.parse("Example.com", 80)).isEqualTo(new TunnelCall("example.com", 80));
        assertThat(TargetAuthority.parse("example.com:8080", 80)).isEqualTo(new TunnelCall("example.com", 8080));
        assertThat(TargetAuthority.parse("[2001:db8::1]", 80)).isEqualTo(new TunnelCall("2001:db8::1", 80));
        assertThatThrownBy(() -> TargetAuthority.parse("evil.com#x", 80)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theBordersDecodingOfATunnelCallRefusesTheSame() {
        // The Border reads Egress-Target with TunnelCall.parse, and a TunnelCall cannot hold another host.
        assertThatThrownBy(() -> TunnelCall.parse("127.0.0.1#x:9999")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TunnelCall("evil.com#.example.test", 9999))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
