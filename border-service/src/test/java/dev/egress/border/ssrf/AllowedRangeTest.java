package dev.egress.border.ssrf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import inet.ipaddr.IPAddressString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class AllowedRangeTest {

    private static boolean allows(String entry, String address, int port) {
        return AllowedRange.parse(entry).allows(new IPAddressString(address).getAddress(), port);
    }

    @ParameterizedTest(name = "{0} allows {1} port {2}: {3}")
    @CsvSource({
        "10.0.0.0/8, 10.1.2.3, 1, true",
        "10.0.0.0/8, 10.1.2.3, 65535, true",
        "10.0.0.0/8, 11.1.2.3, 80, false",
        "10.0.0.0/8:8000-8999, 10.1.2.3, 8000, true",
        "10.0.0.0/8:8000-8999, 10.1.2.3, 7999, false",
        "10.0.0.0/8:8000-8999, 11.1.2.3, 8000, false",
        "127.0.0.1:9999, 127.0.0.1, 9999, true",
        "127.0.0.1:9999, 127.0.0.2, 9999, false",
        "[::1]:9999, ::1, 9999, true",
        "[::1]:9999, ::1, 9998, false",
        "[::1], ::1, 9998, true",
        "fd00::1, fd00::1, 80, true",
        "fd00::/8:443, fd12::5, 443, true"
    })
    void allowsOnlyItsAddressesOnItsPorts(String entry, String address, int port, boolean allowed) {
        assertThat(allows(entry, address, port)).isEqualTo(allowed);
    }

    @Test
    void onlyAnEntryWithPortsNamesItsPorts() {
        assertThat(AllowedRange.parse("10.0.0.0/8").explicitPorts()).isFalse();
        assertThat(AllowedRange.parse("[::1]").explicitPorts()).isFalse();
        assertThat(AllowedRange.parse("fd00::1").explicitPorts()).isFalse();
        assertThat(AllowedRange.parse("10.0.0.0/8:80").explicitPorts()).isTrue();
        assertThat(AllowedRange.parse("127.0.0.1:80").explicitPorts()).isTrue();
        assertThat(AllowedRange.parse("[::1]:80").explicitPorts()).isTrue();
        assertThat(AllowedRange.parse(" 10.0.0.0/8 ")).hasToString("10.0.0.0/8");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"[::1]:", "[::1]80", "[::1", "10.0.0.1:", "10.0.0.0/8:", "10.0.0.0/8:x", "a:80"})
    void refusesMalformedPortsAndBrackets(String entry) {
        assertThatThrownBy(() -> AllowedRange.parse(entry)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void refusesNull() {
        assertThatThrownBy(() -> AllowedRange.parse(null)).isInstanceOf(IllegalArgumentException.class);
    }
}
