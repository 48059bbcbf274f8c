package dev.egress.discovery.web.forward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TunnelCallTest {

    @Test
    void readsHostAndPortInLowerCase() {
        assertThat(TunnelCall.parse("Example.COM:443")).isEqualTo(new TunnelCall("example.com", 443));
    }

    @Test
    void readsABracketedIpv6Literal() {
        TunnelCall call = TunnelCall.parse("[2001:db8::1]:8443");
        assertThat(call).isEqualTo(new TunnelCall("2001:db8::1", 8443));
        assertThat(call.authority()).isEqualTo("[2001:db8::1]:8443");
    }

    @Test
    void writesTheAuthorityBack() {
        assertThat(new TunnelCall("example.com", 1).authority()).isEqualTo("example.com:1");
        assertThat(new TunnelCall("example.com", 65535).authority()).isEqualTo("example.com:65535");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "example.com",
                "example.com:",
                ":443",
                "example.com:0",
                "example.com:65536",
                "example.com:99999",
                "example.com:+443",
                "example.com:44a",
                "2001:db8::1:443",
                "[2001:db8::1]",
                "[2001:db8::1]x:443",
                "[2001:db8::1:443"
            })
    void refusesAnAuthorityWithoutAValidPort(String authority) {
        assertThatThrownBy(() -> TunnelCall.parse(authority)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void refusesAMissingTargetAndAnOverlongHost() {
        assertThatThrownBy(() -> TunnelCall.parse(null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TunnelCall("a".repeat(254), 80)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TunnelCall(" ", 80)).isInstanceOf(IllegalArgumentException.class);
    }
}
