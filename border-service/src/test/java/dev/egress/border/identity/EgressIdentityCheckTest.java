package dev.egress.border.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.egress.discovery.registry.EgressIp;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * The check against a real echo server on loopback, asked from real sockets bound to 127.0.0.2 and 127.0.0.3.
 * The echo server answers what it is told to: by default the caller's address, as checkip does.
 */
class EgressIdentityCheckTest {

    private static final EgressIp SELF = EgressIp.of("127.0.0.2");
    private static final EgressIp NAT_BIND = EgressIp.of("127.0.0.3");
    /** A public address that nothing on loopback translates 127.0.0.3 to: the echo sees the bind address. */
    private static final EgressIp NAT_PUBLIC = EgressIp.of("198.51.100.7");

    private final AtomicReference<Function<InetSocketAddress, Answer>> behaviour =
            new AtomicReference<>(remote -> new Answer(200, remote.getAddress().getHostAddress() + "\n"));
    private final List<String> asked = new CopyOnWriteArrayList<>();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private DisposableServer echo;
    private EgressIdentityCheck check;

    private record Answer(int status, String body) {}

    @BeforeEach
    void startEcho() {
        echo = HttpServer.create()
                .host("127.0.0.1")
                .port(0)
                .handle((request, response) -> {
                    InetSocketAddress remote = request.remoteAddress();
                    asked.add(remote.getAddress().getHostAddress());
                    Answer answer = behaviour.get().apply(remote);
                    return response.status(HttpResponseStatus.valueOf(answer.status()))
                            .sendString(Mono.just(answer.body()))
                            .then();
                })
                .bindNow();
    }

    @AfterEach
    void stop() {
        if (check != null) {
            check.close();
        }
        echo.disposeNow();
    }

    private EgressIdentityCheck check(Map<EgressIp, EgressIp> bindByPublic) {
        EgressCheckProperties properties = new EgressCheckProperties(
                URI.create("http://127.0.0.1:" + echo.port() + "/"), Duration.ofMinutes(10), Duration.ofSeconds(5));
        check = new EgressIdentityCheck(properties, bindByPublic, Clock.systemUTC(), meters);
        return check;
    }

    @Test
    void everyIpIsWithheldUntilTheFirstAnswer() {
        EgressIdentityCheck check = check(Map.of(SELF, SELF));

        assertThat(check.withheld()).containsExactly(Map.entry(SELF, "egress-identity-unverified"));
        assertThat(asked).isEmpty();
    }

    @Test
    void anIpSeenAsItselfIsServedAndOneSeenAsAnotherAddressIsWithheld() {
        EgressIdentityCheck check = check(Map.of(SELF, SELF, NAT_PUBLIC, NAT_BIND));

        check.checkAll().block(Duration.ofSeconds(10));

        assertThat(asked).containsExactlyInAnyOrder("127.0.0.2", "127.0.0.3");
        assertThat(check.identities().get(SELF).verdict()).isEqualTo(IdentityVerdict.MATCH);
        assertThat(check.identities().get(NAT_PUBLIC).verdict()).isEqualTo(IdentityVerdict.MISMATCH);
        assertThat(check.identities().get(NAT_PUBLIC).seen()).isEqualTo(NAT_BIND);
        assertThat(check.withheld()).containsExactly(Map.entry(NAT_PUBLIC, "egress-identity-mismatch"));
        assertThat(meters.get("border.egress.identity")
                        .tags("ip", NAT_PUBLIC.value(), "verdict", "MISMATCH")
                        .gauge()
                        .value())
                .isEqualTo(1.0);
    }

    @Test
    void aWithheldIpIsServedAgainOnceItIsSeenAsItselfAndListenersHearBothChanges() {
        EgressIdentityCheck check = check(Map.of(NAT_PUBLIC, NAT_BIND));
        List<Map<EgressIp, String>> heard = new ArrayList<>();
        check.onChange(ids -> heard.add(check.withheld()));
        check.checkAll().block(Duration.ofSeconds(10));
        assertThat(check.withheld()).containsKey(NAT_PUBLIC);

        // The operator fixes the translation: the echo now sees the public address.
        behaviour.set(remote -> new Answer(200, NAT_PUBLIC.value()));
        check.checkAll().block(Duration.ofSeconds(10));

        assertThat(check.withheld()).isEmpty();
        assertThat(heard).containsExactly(Map.of(NAT_PUBLIC, "egress-identity-mismatch"), Map.of());
    }

    @Test
    void aCheckWithoutAUsableAnswerKeepsTheVerdictAndCountsTheFailure() {
        EgressIdentityCheck check = check(Map.of(SELF, SELF));
        check.checkAll().block(Duration.ofSeconds(10));
        assertThat(check.withheld()).isEmpty();

        behaviour.set(remote -> new Answer(503, "busy"));
        check.checkAll().block(Duration.ofSeconds(10));
        behaviour.set(remote -> new Answer(200, "<html>not an address</html>"));
        check.checkAll().block(Duration.ofSeconds(10));

        assertThat(check.withheld()).isEmpty();
        assertThat(check.identities().get(SELF).lastError()).contains("not an address");
        assertThat(meters.get("border.egress.identity.check.failures").counter().count())
                .isEqualTo(2.0);
    }

    @Test
    void anUnverifiedIpStaysWithheldWhileTheEchoServiceDoesNotAnswer() {
        EgressIdentityCheck check = check(Map.of(SELF, SELF));
        behaviour.set(remote -> new Answer(500, ""));

        check.checkAll().block(Duration.ofSeconds(10));

        assertThat(check.withheld()).containsExactly(Map.entry(SELF, "egress-identity-unverified"));
        assertThat(check.identities().get(SELF).lastError()).contains("HTTP 500");
    }

    @Test
    void startChecksAtOnce() {
        EgressIdentityCheck check = check(Map.of(SELF, SELF));

        check.start();

        await().atMost(Duration.ofSeconds(10)).until(() -> check.withheld().isEmpty());
    }

    @Test
    void theAnswerIsTheFirstLineAndMustBeAnAddress() {
        assertThat(EgressEcho.parse("  203.0.113.9 \r\nextra".getBytes())).isEqualTo(EgressIp.of("203.0.113.9"));
        assertThat(EgressEcho.parse("2001:db8::1\n".getBytes())).isEqualTo(EgressIp.of("2001:db8::1"));
        assertThatThrownBy(() -> EgressEcho.parse("a".repeat(300).getBytes()))
                .hasMessageContaining("at most 256 bytes");
    }
}
