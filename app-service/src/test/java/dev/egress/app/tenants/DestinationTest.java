package dev.egress.app.tenants;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DestinationTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "api.example.com             | api.example.com        | false | 0",
                "API.Example.COM.            | api.example.com        | false | 0",
                "api.example.com:443         | api.example.com        | false | 443",
                "hooks_1.a-b.example:1       | hooks_1.a-b.example    | false | 1",
                "localhost:65535             | localhost              | false | 65535",
                "*.Example.com               | example.com            | true  | 0",
                "*.example.com.:8443         | example.com            | true  | 8443",
                "xn--bcher-kva.example       | xn--bcher-kva.example  | false | 0",
                "192.0.2.7                   | 192.0.2.7              | false | 0",
                "192.0.2.7:443               | 192.0.2.7              | false | 443",
                "2001:DB8:0:0:0:0:0:7        | 2001:db8::7            | false | 0",
                "[2001:db8::7]               | 2001:db8::7            | false | 0",
                "[2001:DB8::7]:443           | 2001:db8::7            | false | 443",
                "[::ffff:192.0.2.7]:80       | 192.0.2.7              | false | 80",
                "'a.b.c.d.example.com'       | a.b.c.d.example.com    | false | 0"
            })
    void normalisesEveryForm(String text, String host, boolean wildcard, int port) {
        assertThat(Destination.parse(text)).isEqualTo(new Destination(host, wildcard, port));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "''                        | host name of 0 characters",
                "'.'                       | host name of 0 characters",
                "*.                        | host name of 0 characters",
                "a..example.com            | label ''",
                "example.com..             | label ''",
                "-a.example.com            | label '-a'",
                "a-.example.com            | label 'a-'",
                "a b.example.com           | label 'a b'",
                "*.*.example.com           | label '*'",
                "a.*.example.com           | label '*'",
                "*example.com              | label '*example'",
                "bücher.example            | not ASCII",
                "127.1                     | ends in a numeric label",
                "10.0.0.010                | ends in a numeric label",
                "*.0.2.7                   | ends in a numeric label",
                "example.com:              | port ''",
                "example.com:0             | port '0'",
                "example.com:0443          | port '0443'",
                "example.com:65536         | port '65536'",
                "example.com:100000        | port '100000'",
                "example.com:44a           | port '44a'",
                "example.com:-1            | port '-1'",
                "2001:db8::7:443:1:2:3:4   | expected: an IPv4 or IPv6 literal",
                "[2001:db8::7              | expected an IPv6 literal inside [ ]",
                "[192.0.2.7]:443           | expected an IPv6 literal inside [ ]",
                "[2001:db8::7]443          | expected ':port' after ']'",
                "[2001:db8::7]:0           | port '0'",
                "[2001:db8::zz]:443        | expected: an IPv4 or IPv6 literal"
            })
    void refusesAnEntryNamingTheRule(String text, String message) {
        assertThatThrownBy(() -> Destination.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("'" + text + "': ")
                .hasMessageContaining(message);
    }

    @Test
    void acceptsTheLongestNameAndLabel() {
        String label = "a".repeat(63);
        String name = String.join(".", label, label, label, "b".repeat(61));
        assertThat(name).hasSize(253);

        assertThat(Destination.parse(name).host()).isEqualTo(name);
        assertThatThrownBy(() -> Destination.parse("c" + name)).hasMessageContaining("of 254 characters");
        assertThatThrownBy(() -> Destination.parse(label + "a.example")).hasMessageContaining("label '" + label + "a'");
    }

    @Test
    void aLabelMayContainDigitsAndTheLastMayMixThem() {
        assertThat(Destination.parse("0.example.1a").host()).isEqualTo("0.example.1a");
        assertThat(Destination.parse("a.b-9").host()).isEqualTo("a.b-9");
    }

    @Test
    void writesTheNormalisedEntryBack() {
        assertThat(Destination.parse("API.example.com")).hasToString("api.example.com");
        assertThat(Destination.parse("api.example.com:443")).hasToString("api.example.com:443");
        assertThat(Destination.parse("*.example.com:443")).hasToString("*.example.com:443");
        assertThat(Destination.parse("*.example.com")).hasToString("*.example.com");
        assertThat(Destination.parse("[2001:DB8::7]:443")).hasToString("[2001:db8::7]:443");
        assertThat(Destination.parse("2001:db8::7")).hasToString("2001:db8::7");
        assertThat(Destination.parse("192.0.2.7:80")).hasToString("192.0.2.7:80");
    }

    @Test
    void refusesAPortOutOfRangeAndANullHost() {
        assertThat(new Destination("a", false, 65_535).port()).isEqualTo(65_535);
        assertThat(new Destination("a", false, 0).port()).isZero();
        assertThatThrownBy(() -> new Destination("a", false, 65_536)).hasMessageContaining("port: 65536");
        assertThatThrownBy(() -> new Destination("a", false, -1)).hasMessageContaining("port: -1");
        assertThatThrownBy(() -> new Destination(null, false, 0)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void looksARequestHostUpByTheSameKey() {
        assertThat(Destination.lookupKey("API.Example.com.")).isEqualTo("api.example.com");
        assertThat(Destination.lookupKey("[2001:DB8::7]")).isEqualTo("2001:db8::7");
        assertThat(Destination.lookupKey("2001:db8:0::7")).isEqualTo("2001:db8::7");
        assertThat(Destination.lookupKey("::ffff:192.0.2.7")).isEqualTo("192.0.2.7");
        assertThat(Destination.lookupKey("192.0.2.7")).isEqualTo("192.0.2.7");
        assertThat(Destination.lookupKey("[not:an:ip")).isNull();
        assertThat(Destination.lookupKey("fe80::1%eth0")).isNull();
        // U+212A (Kelvin sign) lower-cases to an ASCII 'k': it must not become "key.example.com".
        assertThat(Destination.lookupKey("\u212Aey.example.com")).isNull();
        assertThat(Destination.lookupKey("b\u00fccher.example")).isNull();
        assertThat(Destination.lookupKey("\u007fa")).isEqualTo("\u007fa");
        assertThat(Destination.lookupKey("[a]")).isEqualTo("a");
        assertThat(Destination.lookupKey("[a")).isEqualTo("[a");
    }

    @Test
    void knowsWhichKeysAreIpLiterals() {
        assertThat(Destination.isIpLiteral("192.0.2.7")).isTrue();
        assertThat(Destination.isIpLiteral("2001:db8::7")).isTrue();
        assertThat(Destination.isIpLiteral("example.com")).isFalse();
        assertThat(Destination.isIpLiteral("127.1")).isFalse();
    }
}
