package dev.egress.app.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

class SourceRangeTest {

    private static boolean in(String range, String address) throws Exception {
        return SourceRange.parse(range).contains(InetAddress.getByName(address));
    }

    @Test
    void anIpv4RangeHoldsExactlyItsPrefix() throws Exception {
        assertThat(in("10.1.0.0/16", "10.1.0.0")).isTrue();
        assertThat(in("10.1.0.0/16", "10.1.255.255")).isTrue();
        assertThat(in("10.1.0.0/16", "10.0.255.255")).isFalse();
        assertThat(in("10.1.0.0/16", "10.2.0.0")).isFalse();
        assertThat(in("10.1.2.3/20", "10.1.15.1"))
                .as("host bits of the network are ignored")
                .isTrue();
        assertThat(in("10.1.2.3/20", "10.1.16.1")).isFalse();
        assertThat(in("192.168.1.7", "192.168.1.7")).isTrue();
        assertThat(in("192.168.1.7", "192.168.1.6")).isFalse();
        assertThat(in("128.0.0.0/1", "203.0.113.9")).isTrue();
        assertThat(in("127.0.0.1/31", "127.0.0.0")).isTrue();
        assertThat(in("127.0.0.1/31", "127.0.0.2")).isFalse();
    }

    @Test
    void anIpv6RangeHoldsExactlyItsPrefixAndNoIpv4Address() throws Exception {
        assertThat(in("fd00::/8", "fdff:ffff::1")).isTrue();
        assertThat(in("fd00::/8", "fc00::1")).isFalse();
        assertThat(in("2001:db8::/33", "2001:db8:7fff::1")).isTrue();
        assertThat(in("2001:db8::/33", "2001:db8:8000::1")).isFalse();
        assertThat(in("::/1", "10.0.0.1")).isFalse();
        assertThat(in("0.0.0.0/1", "::1")).isFalse();
        assertThat(in("::1", "::1")).isTrue();
    }

    @Test
    void printsTheNetworkAndPrefix() {
        assertThat(SourceRange.parse("10.1.2.3/16")).hasToString("10.1.0.0/16");
        assertThat(SourceRange.parse("10.1.2.3")).hasToString("10.1.2.3/32");
        assertThat(SourceRange.parse("fd00::1/8")).hasToString("fd00:0:0:0:0:0:0:0/8");
        assertThat(SourceRange.parse("10.0.0.0/8")).isEqualTo(SourceRange.parse(" 10.9.9.9/8 "));
        assertThat(SourceRange.parse("10.0.0.0/8")).isNotEqualTo(SourceRange.parse("10.0.0.0/9"));
        assertThat(SourceRange.parse("10.0.0.0/8").hashCode())
                .isEqualTo(SourceRange.parse("10.1.0.0/8").hashCode());
    }

    @Test
    void refusesNamesBadPrefixesAndEmptyText() {
        for (String bad : new String[] {
            "",
            " ",
            "svix.internal",
            "10.0.0.0/33",
            "fd00::/129",
            "10.0.0.0/",
            "10.0.0.0/x",
            "10.0.0.0/-1",
            "/8",
            "10.0.0.0/0008"
        }) {
            assertThatThrownBy(() -> SourceRange.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void refusesEveryAddressAndShortIpv4Forms() {
        for (String bad :
                new String[] {"0.0.0.0/0", "10.0.0.0/0", "::/0", "10.1/16", "10.1", "127.1", "10.0.0.010/32"}) {
            assertThatThrownBy(() -> SourceRange.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(SourceRange.parse("10.1.0.0/16")).hasToString("10.1.0.0/16");
        assertThat(SourceRange.parse("0.0.0.0/1")).hasToString("0.0.0.0/1");
    }
}
