package dev.egress.border.ssrf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PortRangeTest {

    @ParameterizedTest(name = "{0} -> {1}-{2}")
    @CsvSource({
        "1, 1, 1",
        "65535, 65535, 65535",
        "08080, 8080, 8080",
        "1-65535, 1, 65535",
        "8000-8999, 8000, 8999",
        "80-80, 80, 80"
    })
    void parsesOnePortOrARange(String text, int from, int to) {
        assertThat(PortRange.parse(text)).isEqualTo(new PortRange(from, to));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "0",
                "65536",
                "99999",
                "000080",
                "",
                "-",
                "-80",
                "80-",
                "8a",
                "http",
                "9000-8000",
                "0-80",
                "80-65536",
                "1-2-3",
                "+80"
            })
    void refusesWhatIsNotAPortOrAnOrderedRange(String text) {
        assertThatThrownBy(() -> PortRange.parse(text)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void containsItsBoundsAndNothingOutside() {
        PortRange range = new PortRange(8000, 8999);
        assertThat(range.contains(7999)).isFalse();
        assertThat(range.contains(8000)).isTrue();
        assertThat(range.contains(8999)).isTrue();
        assertThat(range.contains(9000)).isFalse();
        PortRange single = new PortRange(443, 443);
        assertThat(single.contains(443)).isTrue();
        assertThat(single.contains(442)).isFalse();
        assertThat(single.contains(444)).isFalse();
    }

    @Test
    void showsASinglePortOrARange() {
        assertThat(new PortRange(9999, 9999)).hasToString("9999");
        assertThat(new PortRange(8000, 8999)).hasToString("8000-8999");
    }

    @Test
    void refusesBoundsOutsideOneTo65535() {
        assertThatThrownBy(() -> new PortRange(0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PortRange(1, 65536)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PortRange(2, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(new PortRange(1, 65535).contains(1)).isTrue();
    }
}
