package dev.egress.border.ssrf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import inet.ipaddr.IPAddressString;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class CidrTest {

    @ParameterizedTest(name = "{0} contains {1}: {2}")
    @CsvSource({
        "10.0.0.0/8, 10.0.0.0, true",
        "10.0.0.0/8, 10.255.255.255, true",
        "10.0.0.0/8, 9.255.255.255, false",
        "10.0.0.0/8, 11.0.0.0, false",
        "192.168.1.7, 192.168.1.7, true",
        "192.168.1.7, 192.168.1.8, false",
        "0.0.0.0/0, 203.0.113.9, true",
        "0.0.0.0/0, ::1, false",
        "::/0, 10.0.0.1, false",
        "fd00::/8, fdff:ffff::1, true",
        "fd00::/8, fe00::, false",
        "::/96, 0.0.0.1, false"
    })
    void containsExactlyTheAddressesOfItsBlockAndFamily(String cidr, String address, boolean contained)
            throws Exception {
        Cidr range = Cidr.parse(cidr);
        assertThat(range.contains(InetAddress.getByName(address))).isEqualTo(contained);
        assertThat(range.contains(new IPAddressString(address).getAddress())).isEqualTo(contained);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "10.0.0.0/8, 10.0.0.0/8",
        "' 10.0.0.0/8 ', 10.0.0.0/8",
        "0.0.0.0/0, 0.0.0.0/0",
        "192.0.2.1, 192.0.2.1/32",
        "fd00::/8, fd00::/8",
        "::1, ::1/128"
    })
    void parsesAndShowsTheCanonicalBlock(String text, String shown) {
        assertThat(Cidr.parse(text)).hasToString(shown);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "10.0.0.1/8",
                "10.0.0.0/08",
                "10.0.0.0/",
                "10.0.0.0/1000",
                "10.0.0.0/33",
                "fd00::/129",
                "127.1",
                "0x7f.0.0.1",
                "010.0.0.0/8",
                "10.0.0.0/8/8",
                "localhost",
                "",
                " ",
                "fe80::1%eth0",
                "10.0.0.0/255.0.0.0"
            })
    void refusesAnythingButAStrictLiteral(String text) {
        assertThatThrownBy(() -> Cidr.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(text.strip());
    }

    @Test
    void refusesNull() {
        assertThatThrownBy(() -> Cidr.parse(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aBlockBuiltFromAnAddressIsItsPrefixBlockOrTheSingleAddress() {
        assertThat(new Cidr(new IPAddressString("10.1.2.3").getAddress())).isEqualTo(Cidr.parse("10.1.2.3/32"));
        Cidr fromHost = new Cidr(new IPAddressString("10.1.2.3/8").getAddress());
        assertThat(fromHost).isEqualTo(Cidr.parse("10.0.0.0/8")).hasSameHashCodeAs(Cidr.parse("10.0.0.0/8"));
        assertThat(fromHost.contains(new IPAddressString("10.200.0.1").getAddress()))
                .isTrue();
        assertThatThrownBy(() -> new Cidr(null)).isInstanceOf(NullPointerException.class);
    }
}
