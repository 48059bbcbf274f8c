package dev.egress.border.ssrf;

import static org.assertj.core.api.Assertions.assertThat;

import inet.ipaddr.IPAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class Ipv4LiteralsTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {"1.2.3.4", "1.2.3.4.", "2130706433", "0x7f000001", "0x", "a.0x", "foo.123", "0", "example.0x1f."
            })
    void aHostEndingInANumberIsNumeric(String host) {
        assertThat(Ipv4Literals.looksNumeric(host)).isTrue();
    }

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(
            strings = {
                "",
                ".",
                "..",
                "a..",
                "example.com",
                "example.com.",
                "a.0xg",
                "a.1e",
                "x1",
                "0y12",
                "1.2.3.4a",
                "a.-1"
            })
    void aHostEndingInALabelIsNotNumeric(String host) {
        assertThat(Ipv4Literals.looksNumeric(host)).isFalse();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "127.0.0.1, 127.0.0.1",
        "127.0.0.1., 127.0.0.1",
        "127.1, 127.0.0.1",
        "127.0.1, 127.0.0.1",
        "0x7F000001, 127.0.0.1",
        "0177.0.0.1, 127.0.0.1",
        "2130706433, 127.0.0.1",
        "4294967295, 255.255.255.255",
        "0, 0.0.0.0"
    })
    void readsEveryNotationBrowsersAccept(String host, String address) {
        IPAddress parsed = Ipv4Literals.parseLenient(host);
        assertThat(parsed).isNotNull();
        assertThat(parsed.toCanonicalString()).isEqualTo(address);
    }

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {"", ".", "4294967296", "256.0.0.1", "1.2.3.4.5", "1.2.3.256", "::1", "0x1g", "1..2"})
    void refusesInvalidNumericHosts(String host) {
        assertThat(Ipv4Literals.parseLenient(host)).isNull();
    }

    @Test
    void readsHostsUpTo64Characters() {
        String sixtyFour = "0".repeat(63) + "1";
        assertThat(Ipv4Literals.parseLenient(sixtyFour)).isNotNull();
        assertThat(Ipv4Literals.parseLenient(sixtyFour).toCanonicalString()).isEqualTo("0.0.0.1");
        assertThat(Ipv4Literals.parseLenient(sixtyFour + ".")).isNotNull();
        assertThat(Ipv4Literals.parseLenient("0" + sixtyFour)).isNull();
    }
}
