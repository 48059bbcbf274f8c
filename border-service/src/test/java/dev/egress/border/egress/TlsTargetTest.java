package dev.egress.border.egress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.border.testing.BorderTestProperties;
import dev.egress.border.testing.LocalBorderTest;
import dev.egress.border.testing.Tokens;
import dev.egress.discovery.trust.testing.TestCertificates;
import dev.egress.discovery.web.forward.ForwardRequest;
import dev.egress.discovery.web.forward.ForwardResponse;
import dev.egress.discovery.web.testing.RecordingSink;
import java.net.InetAddress;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

/** https targets: delivered from the bound IP with the certificate and host name verified, refused otherwise. */
@LocalBorderTest({
    "egress.border.id=border-tls",
    "egress.border.ips=127.0.0.2,127.0.0.3",
    BorderTestProperties.LOCAL,
    BorderTestProperties.LOOPBACK_TARGETS
})
class TlsTargetTest {

    /** Trusted through egress.tls.trusted-certificates. */
    static final TestCertificates.Issued TRUSTED = TestCertificates.selfSigned("localhost");
    /** A lookalike: same name and subject as TRUSTED, another key, and no trusted CA signed it. */
    static final TestCertificates.Issued UNTRUSTED = TestCertificates.selfSigned("localhost");

    static RecordingSink trustedSink;
    static RecordingSink untrustedSink;
    static RecordingSink plainSink;

    @Autowired
    WebTestClient web;

    @DynamicPropertySource
    static void trust(DynamicPropertyRegistry registry) {
        registry.add("egress.tls.trusted-certificates", () -> TRUSTED.pem().toString());
    }

    @BeforeAll
    static void startSinks() throws Exception {
        trustedSink = RecordingSink.startHttps(TRUSTED.serverContext());
        untrustedSink = RecordingSink.startHttps(UNTRUSTED.serverContext());
        plainSink = RecordingSink.start();
    }

    @AfterAll
    static void stopSinks() {
        trustedSink.close();
        untrustedSink.close();
        plainSink.close();
    }

    @BeforeEach
    void clear() {
        trustedSink.clear();
        untrustedSink.clear();
        plainSink.clear();
    }

    @Test
    void deliversToAnHttpsTargetFromTheRequestedIpWithTheNameVerified() throws Exception {
        ForwardResponse response = forward("127.0.0.3", "https://localhost:" + trustedSink.port() + "/tls")
                .expectStatus()
                .isOk()
                .expectBody(ForwardResponse.class)
                .returnResult()
                .getResponseBody();

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.sourceIp()).isEqualTo("127.0.0.3");
        assertThat(trustedSink.received()).singleElement().satisfies(r -> {
            assertThat(r.peer()).isEqualTo(InetAddress.getByName("127.0.0.3"));
            assertThat(r.path()).isEqualTo("/tls");
            assertThat(r.headers().get("host")).isEqualTo("localhost:" + trustedSink.port());
        });
    }

    @Test
    void refusesACertificateThatDoesNotNameTheHost() {
        // Same trusted certificate, but it names localhost and the URL names 127.0.0.1.
        forward("127.0.0.2", "https://127.0.0.1:" + trustedSink.port() + "/tls")
                .expectStatus()
                .isEqualTo(502)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:target-unreachable")
                .jsonPath("$.targetContacted")
                .isEqualTo(false);
        assertThat(trustedSink.received()).isEmpty();
    }

    @Test
    void refusesACertificateNoTrustedAuthoritySigned() {
        forward("127.0.0.2", "https://localhost:" + untrustedSink.port() + "/tls")
                .expectStatus()
                .isEqualTo(502)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:target-unreachable")
                .jsonPath("$.targetContacted")
                .isEqualTo(false);
        assertThat(untrustedSink.received()).isEmpty();
    }

    @Test
    void keepsPlainHttpForAnHttpTarget() {
        forward("127.0.0.2", plainSink.baseUri() + "/plain")
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult();
        assertThat(plainSink.received())
                .singleElement()
                .satisfies(r -> assertThat(r.path()).isEqualTo("/plain"));
    }

    private WebTestClient.ResponseSpec forward(String sourceIp, String url) {
        return web.post()
                .uri("/internal/v1/egress")
                .header("Authorization", "Bearer " + Tokens.INTERNAL)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(
                        new ForwardRequest("d", sourceIp, url, "POST", Map.of("Content-Type", "text/plain"), "hello"))
                .exchange();
    }
}
