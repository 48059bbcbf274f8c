package dev.egress.border.trust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.egress.border.BorderApplication;
import dev.egress.border.registration.BorderRegistrar;
import dev.egress.border.testing.BorderTestProperties;
import dev.egress.border.testing.InMemoryBorderRegistry;
import dev.egress.border.testing.InMemoryRegistryConfiguration;
import dev.egress.border.testing.Tokens;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.trust.PeerTrustManager;
import dev.egress.discovery.trust.testing.TestPki;
import dev.egress.discovery.web.testing.RecordingSink;
import io.netty.handler.ssl.OpenSsl;
import java.io.IOException;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A Border on the trust chain: it serves TLS with its identity, forwards only for clients presenting an
 * App certificate of the App CA (plus the internal token), keeps probes reachable without a client
 * certificate, refuses to start with wrong or missing material, and serves a rotated certificate
 * without a restart.
 */
@ExtendWith(OutputCaptureExtension.class)
class MutualTlsTest {

    private static TestPki borderCa;
    private static TestPki appCa;
    private static TestPki rogueCa;
    private static TestPki.Issued app;
    private static TestPki.Issued rogueApp;
    private static RecordingSink sink;

    @BeforeAll
    static void pki() throws Exception {
        borderCa = TestPki.create("border CA");
        appCa = TestPki.create("app CA");
        rogueCa = TestPki.create("rogue CA");
        app = appCa.app("app-1");
        rogueApp = rogueCa.app("app-1");
        sink = RecordingSink.start();
    }

    @AfterAll
    static void stopSink() {
        sink.close();
    }

    @BeforeEach
    void resetSink() {
        sink.clear();
        sink.reply(RecordingSink.Reply.ok());
    }

    private static ConfigurableApplicationContext run(String... args) {
        List<String> all = new ArrayList<>(List.of(
                "--server.port=0",
                "--egress.border.id=border-a",
                "--egress.border.ips=127.0.0.2",
                "--" + BorderTestProperties.LOOPBACK_IPS,
                "--egress.security.internal-token=" + Tokens.INTERNAL,
                "--egress.ssrf.allowed-ranges=127.0.0.1/32:1024-65535"));
        all.addAll(List.of(args));
        return new SpringApplicationBuilder(BorderApplication.class, InMemoryRegistryConfiguration.class)
                .run(all.toArray(String[]::new));
    }

    private static String[] secure(TestPki.Issued border) {
        return secure(border, "auto");
    }

    private static String[] secure(TestPki.Issued border, String provider) {
        if (provider.equals("openssl")) {
            assumeTrue(
                    OpenSsl.isAvailable(), () -> "netty-tcnative does not load here: " + OpenSsl.unavailabilityCause());
        }
        return new String[] {
            "--egress.border.advertised-url=https://127.0.0.1:8181",
            "--egress.trust.certificate=" + border.certificate(),
            "--egress.trust.private-key=" + border.privateKey(),
            "--egress.trust.app-ca=" + appCa.caPem(),
            "--egress.trust.check-interval=100ms",
            "--egress.tls.provider=" + provider
        };
    }

    private static int port(ConfigurableApplicationContext context) {
        return ((WebServerApplicationContext) context).getWebServer().getPort();
    }

    private static HttpResponse<String> forward(int port, SSLContext tls) throws Exception {
        // A new client per call: a new connection, so a new handshake.
        HttpClient client = HttpClient.newBuilder()
                .sslContext(tls)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
        String body = "{\"deliveryId\":\"d-1\",\"sourceIp\":\"127.0.0.2\",\"url\":\"" + sink.baseUri() + "/hook\","
                + "\"method\":\"POST\",\"headers\":{},\"body\":\"{}\"}";
        return client.send(
                HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/internal/v1/egress"))
                        .header("Authorization", "Bearer " + Tokens.INTERNAL)
                        .header("Content-Type", "application/json")
                        .timeout(Duration.ofSeconds(30))
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"openssl", "jdk"})
    void forwardsForAnAppCertificateOnly(String provider) throws Exception {
        try (ConfigurableApplicationContext border = run(secure(borderCa.border("border-a", "127.0.0.2"), provider))) {
            int port = port(border);

            HttpResponse<String> withCertificate = forward(port, TestPki.context(app, borderCa.caPem()));
            assertThat(withCertificate.statusCode()).as(withCertificate.body()).isEqualTo(200);
            // h2 chosen by ALPN on the mutual-TLS link, and the client certificate is still seen on the stream.
            assertThat(withCertificate.version()).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(sink.received()).hasSize(1);

            HttpResponse<String> without = forward(port, TestPki.context(null, borderCa.caPem()));
            assertThat(without.statusCode()).isEqualTo(403);
            assertThat(without.body()).contains("client-certificate-required").contains("\"targetContacted\":false");

            // A certificate of another CA does not even complete the handshake.
            assertThatThrownBy(() -> forward(port, TestPki.context(rogueApp, borderCa.caPem())))
                    .isInstanceOf(IOException.class);
            assertThat(sink.received()).hasSize(1);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"openssl", "jdk"})
    void aResumedSessionPassesTheForwardDoorOnlyAfterTheAppCertificateIsCheckedAgain(String provider) throws Exception {
        try (ConfigurableApplicationContext border = run(secure(borderCa.border("border-a", "127.0.0.2"), provider))) {
            int port = port(border);
            // One client TLS context, so its session cache offers the first session to the later connections.
            SSLContext tls = TestPki.context(app, borderCa.caPem());
            for (int i = 0; i < 3; i++) {
                HttpResponse<String> response = forward(port, tls);
                assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            }
            PeerTrustManager apps =
                    border.getBean(TrustMode.class).material().orElseThrow().apps();
            assertThat(apps.resumptions())
                    .as("resumed handshakes, each checked again")
                    .isEqualTo(2);
            assertThat(sink.received()).hasSize(3);
        }
    }

    @ParameterizedTest
    @CsvSource({"auto, OPENSSL", "openssl, OPENSSL", "jdk, JDK"})
    void logsTheTlsProviderItChoseOnce(String property, String provider, CapturedOutput output) {
        if (!provider.equals("JDK")) {
            assumeTrue(
                    OpenSsl.isAvailable(), () -> "netty-tcnative does not load here: " + OpenSsl.unavailabilityCause());
        }
        try (ConfigurableApplicationContext border = run(secure(borderCa.border("border-a", "127.0.0.2"), property))) {
            assertThat(output.getOut())
                    .containsOnlyOnce("TLS provider: ")
                    .contains("TLS provider: " + provider + " (")
                    .contains("egress.tls.provider=" + property + ")");
        }
    }

    @Test
    void appsIpStatusRouteTakesAnAppCertificateToo() throws Exception {
        try (ConfigurableApplicationContext border = run(secure(borderCa.border("border-a", "127.0.0.2")))) {
            int port = port(border);

            assertThat(setStatus(port, TestPki.context(null, borderCa.caPem())).statusCode())
                    .isEqualTo(403);
            HttpResponse<String> withCertificate = setStatus(port, TestPki.context(app, borderCa.caPem()));
            assertThat(withCertificate.statusCode()).as(withCertificate.body()).isEqualTo(200);
            assertThat(withCertificate.body()).contains("\"status\":\"DRAINING\"");
        }
    }

    private static HttpResponse<String> setStatus(int port, SSLContext tls) throws Exception {
        HttpClient client = HttpClient.newBuilder()
                .sslContext(tls)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
        return client.send(
                HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/internal/v1/ips/127.0.0.2"))
                        .header("Authorization", "Bearer " + Tokens.INTERNAL)
                        .header("Content-Type", "application/json")
                        .timeout(Duration.ofSeconds(30))
                        .PUT(HttpRequest.BodyPublishers.ofString("{\"status\":\"DRAINING\"}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void probesAnswerOverTlsWithoutAClientCertificate() throws Exception {
        try (ConfigurableApplicationContext border = run(secure(borderCa.border("border-a", "127.0.0.2")))) {
            HttpClient client = HttpClient.newBuilder()
                    .sslContext(TestPki.context(null, borderCa.caPem()))
                    .build();
            HttpResponse<String> liveness = client.send(
                    HttpRequest.newBuilder(
                                    URI.create("https://127.0.0.1:" + port(border) + "/actuator/health/liveness"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(liveness.statusCode()).isEqualTo(200);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"openssl", "jdk"})
    void servesAndAnnouncesARotatedCertificateWithoutRestart(String provider) throws Exception {
        TestPki.Issued files = borderCa.border("border-a", "127.0.0.2");
        try (ConfigurableApplicationContext border = run(secure(files, provider))) {
            int port = port(border);
            BigInteger before = servedSerial(port);
            InMemoryBorderRegistry registry = border.getBean(InMemoryBorderRegistry.class);
            long generation = border.getBean(BorderRegistrar.class).current().generation();

            files.replaceWith(borderCa.border("border-a", "127.0.0.2"));

            await().atMost(Duration.ofSeconds(20))
                    .until(() -> !servedSerial(port).equals(before));
            // Republished, so that the registry holds an announcement signed with the new key.
            await().atMost(Duration.ofSeconds(20)).until(() -> registry.held().generation() > generation);
        }
    }

    @Test
    void republishesTheSignedAnnouncementEveryHalfOfItsValidityWindow() {
        List<String> args = new ArrayList<>(List.of(secure(borderCa.border("border-a", "127.0.0.2"))));
        args.add("--egress.trust.announcement-validity=2s");
        try (ConfigurableApplicationContext border = run(args.toArray(String[]::new))) {
            InMemoryBorderRegistry registry = border.getBean(InMemoryBorderRegistry.class);
            Announcement first = registry.held();

            assertThat(first.validFor()).isEqualTo(Duration.ofSeconds(2));
            // Two refreshes, each a new generation published later, long before a 2 s window could end.
            await().atMost(Duration.ofSeconds(10)).until(() -> registry.held().generation() >= first.generation() + 2);
            Announcement refreshed = registry.held();
            assertThat(refreshed.publishedAt()).isAfter(first.publishedAt());
            assertThat(refreshed.validFor()).isEqualTo(Duration.ofSeconds(2));
            assertThat(refreshed.sameRoutingAs(first)).isTrue();
        }
    }

    @Test
    void saysAtStartupThatItsCertificateDoesNotNameAnIpItWouldAnnounce(CapturedOutput output) {
        try (ConfigurableApplicationContext border = run(secure(borderCa.border("border-a", "127.0.0.3")))) {
            assertThat(output.getOut())
                    .contains("egress.trust.certificate does not name [127.0.0.2] of egress.border.ips as IP SANs")
                    .contains("[127.0.0.1, 127.0.0.3]");
        }
    }

    @Test
    void saysNothingAboutIpSansWhenTheCertificateNamesEveryIp(CapturedOutput output) {
        try (ConfigurableApplicationContext border = run(secure(borderCa.border("border-a", "127.0.0.2")))) {
            assertThat(output.getOut()).doesNotContain("as IP SANs");
        }
    }

    @Test
    void refusesToStartWithAValidityWindowAppsWouldRefuse() {
        List<String> args = new ArrayList<>(List.of(secure(borderCa.border("border-a", "127.0.0.2"))));
        args.add("--egress.trust.announcement-validity=25h");
        assertThatThrownBy(() -> run(args.toArray(String[]::new)))
                .rootCause()
                .hasMessageContaining("egress.trust.announcement-validity")
                .hasMessageContaining("expected: 1s..24h");
    }

    private static BigInteger servedSerial(int port) throws Exception {
        HttpClient client = HttpClient.newBuilder()
                .sslContext(TestPki.context(null, borderCa.caPem()))
                .build();
        HttpResponse<String> response = client.send(
                HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/actuator/health/liveness"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        return ((X509Certificate) response.sslSession().orElseThrow().getPeerCertificates()[0]).getSerialNumber();
    }

    @Test
    void refusesToStartWithoutTrustMaterialNamingTheProperties() {
        assertThatThrownBy(() -> run("--egress.border.advertised-url=https://127.0.0.1:8181"))
                .rootCause()
                .hasMessageContaining("egress.trust.certificate")
                .hasMessageContaining("egress.trust.app-ca")
                .hasMessageContaining("egress.security.insecure-local=true");
    }

    @Test
    void refusesToStartWithACertificateNamingAnotherBorder() {
        assertThatThrownBy(() -> run(secure(borderCa.border("border-b", "127.0.0.2"))))
                .rootCause()
                .hasMessageContaining("spiffe://egress.local/border/border-b")
                .hasMessageContaining("expected: spiffe://egress.local/border/border-a");
    }

    @Test
    void refusesToStartWithAPlaintextAdvertisedUrl() {
        List<String> args = new ArrayList<>(List.of(secure(borderCa.border("border-a", "127.0.0.2"))));
        args.set(0, "--egress.border.advertised-url=http://127.0.0.1:8181");
        assertThatThrownBy(() -> run(args.toArray(String[]::new)))
                .rootCause()
                .hasMessageContaining("egress.border.advertised-url")
                .hasMessageContaining("expected: https");
    }
}
