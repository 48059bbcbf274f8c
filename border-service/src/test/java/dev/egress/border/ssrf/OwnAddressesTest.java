package dev.egress.border.ssrf;

import static org.assertj.core.api.Assertions.assertThat;

import inet.ipaddr.IPAddress;
import inet.ipaddr.IPAddressString;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class OwnAddressesTest {

    private final OwnAddresses own = new OwnAddresses();

    private static IPAddress ip(String text) {
        return new IPAddressString(text).getAddress();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"127.0.0.1", "127.0.0.9", "::1", "0.0.0.0", "::"})
    void loopbackAndTheWildcardAreThisHost(String address) {
        assertThat(own.isOwnHost(ip(address))).isTrue();
    }

    @Test
    void aPublicAddressIsNotThisHost() {
        // Vetting only; 192.0.2.0/24 is documentation space, 198.51.100.0/24 too.
        assertThat(own.isOwnHost(ip("198.51.100.7"))).isFalse();
        assertThat(own.isOwnHost(ip("2001:db8::7"))).isFalse();
    }

    @Test
    void everyInterfaceAddressIsThisHost() throws Exception {
        List<InetAddress> local = new ArrayList<>();
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            for (InetAddress a : Collections.list(nic.getInetAddresses())) {
                if (!a.isLoopbackAddress()) {
                    local.add(a);
                }
            }
        }
        Assumptions.assumeFalse(local.isEmpty(), "this machine has no non-loopback interface address");
        for (InetAddress a : local) {
            assertThat(own.isOwnHost(Addresses.of(a))).as("%s", a).isTrue();
            // Asked twice: the second answer comes from the cached enumeration.
            assertThat(own.isOwnHost(Addresses.of(a))).as("%s", a).isTrue();
        }
    }

    @Test
    void aListeningPortIsOwnOnlyOnThisHostsAddresses() {
        own.addListeningPort(1);
        own.addListeningPort(8181);
        assertThat(own.isOwnListener(ip("127.0.0.1"), 1)).isTrue();
        assertThat(own.isOwnListener(ip("::1"), 8181)).isTrue();
        assertThat(own.isOwnListener(ip("127.0.0.1"), 8182)).isFalse();
        assertThat(own.isOwnListener(ip("198.51.100.7"), 8181)).isFalse();
    }

    @Test
    void ignoresPortsThatWereNotBound() {
        own.addListeningPort(0);
        own.addListeningPort(-1);
        assertThat(own.isOwnListener(ip("127.0.0.1"), 0)).isFalse();
        assertThat(own.isOwnListener(ip("127.0.0.1"), -1)).isFalse();
    }

    @Test
    void anInterfaceAddressOutsideEveryDenyRangeIsThisHostToo() {
        OwnAddresses node = new OwnAddresses(() -> Set.of(ip("93.184.215.14")));
        assertThat(node.isOwnHost(ip("93.184.215.14"))).isTrue();
        assertThat(node.isOwnHost(ip("93.184.215.15"))).isFalse();
    }

    @Test
    void whenTheInterfacesCannotBeReadOnlyLoopbackAndTheWildcardAreThisHost() {
        OwnAddresses unreadable = new OwnAddresses(() -> {
            throw new SocketException("no interfaces");
        });
        assertThat(unreadable.isOwnHost(ip("127.0.0.1"))).isTrue();
        assertThat(unreadable.isOwnHost(ip("::"))).isTrue();
        assertThat(unreadable.isOwnHost(ip("93.184.215.14"))).isFalse();
    }
}
