package dev.egress.border.egress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.border.registration.BorderRegistrar;
import dev.egress.border.testing.BorderTestProperties;
import dev.egress.border.testing.InMemoryBorderRegistry;
import dev.egress.border.testing.LocalBorderTest;
import dev.egress.border.testing.Tokens;
import dev.egress.discovery.registry.AnnouncedIp;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.web.forward.ForwardRequest;
import dev.egress.discovery.web.forward.ForwardResponse;
import dev.egress.discovery.web.testing.RecordingSink;
import java.net.InetAddress;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * A Border behind a NAT: {@code 127.0.0.5=127.0.0.2} binds .5 for the IP whose identity (what App
 * routes by, what the registry carries) is .2. Loopback stands in for the private and public networks;
 * the real NAT is exercised by system-tests' PublicAddressNatIT.
 */
@LocalBorderTest({
    "egress.border.id=border-nat",
    "egress.border.ips=127.0.0.5=127.0.0.2,127.0.0.3",
    BorderTestProperties.LOCAL,
    BorderTestProperties.OPERATOR,
    BorderTestProperties.LOOPBACK_TARGETS
})
class NatMappedForwardTest {

    @AutoClose
    static final RecordingSink sink = RecordingSink.started();

    @Autowired
    WebTestClient web;

    @Autowired
    BorderRegistrar registrar;

    @Autowired
    InMemoryBorderRegistry registry;

    @BeforeEach
    void reset() {
        sink.clear();
        registrar.setStatus(EgressIp.of("127.0.0.2"), IpStatus.ACTIVE).join();
    }

    @Test
    void announcesThePublicAddressAsTheIpAndTheBindAddressBesideIt() {
        assertThat(registry.held().ips())
                .containsExactly(
                        new AnnouncedIp(EgressIp.of("127.0.0.2"), EgressIp.of("127.0.0.5"), IpStatus.ACTIVE),
                        new AnnouncedIp(EgressIp.of("127.0.0.3"), IpStatus.ACTIVE));
    }

    @Test
    void sendsFromTheBindAddressWhenAskedForThePublicOneAndReportsTheBindAddress() throws Exception {
        ForwardResponse response = forward("127.0.0.2")
                .expectStatus()
                .isOk()
                .expectBody(ForwardResponse.class)
                .returnResult()
                .getResponseBody();

        assertThat(response.sourceIp()).isEqualTo("127.0.0.5");
        assertThat(sink.received())
                .singleElement()
                .satisfies(r -> assertThat(r.peer()).isEqualTo(InetAddress.getByName("127.0.0.5")));
    }

    @Test
    void refusesARequestNamingTheBindAddressAsNotHosted() {
        forward("127.0.0.5")
                .expectStatus()
                .isNotFound()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:ip-not-hosted");
        assertThat(sink.received()).isEmpty();
    }

    @Test
    void refusesThePublicAddressWhileItIsNotActive() {
        registrar.setStatus(EgressIp.of("127.0.0.2"), IpStatus.DRAINING).join();

        forward("127.0.0.2")
                .expectStatus()
                .isEqualTo(409)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:ip-not-active");
        assertThat(sink.received()).isEmpty();
    }

    @Test
    void theOpsViewShowsBothAddresses() {
        web.get()
                .uri("/ops/v1/ips")
                .header("Authorization", "Bearer " + Tokens.OPERATOR)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.ips[?(@.ip == '127.0.0.2')].bind")
                .isEqualTo("127.0.0.5")
                .jsonPath("$.ips[?(@.ip == '127.0.0.3')].bind")
                .isEqualTo("127.0.0.3");
    }

    private WebTestClient.ResponseSpec forward(String sourceIp) {
        return web.post()
                .uri("/internal/v1/egress")
                .header("Authorization", "Bearer " + Tokens.INTERNAL)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(
                        new ForwardRequest("d-" + sourceIp, sourceIp, sink.baseUri() + "/hook", "POST", Map.of(), "{}"))
                .exchange();
    }
}
