package dev.egress.border.server;

import static dev.egress.border.server.H2Wire.PING;
import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.border.BorderApplication;
import dev.egress.border.testing.BorderTestProperties;
import dev.egress.border.testing.InMemoryRegistryConfiguration;
import dev.egress.border.testing.Tokens;
import dev.egress.discovery.trust.testing.TestPki;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Rapid reset on the Border's TLS port (h2 by ALPN): a connection without a verified App certificate is
 * closed once it resets more streams than Netty's default (200 per 30 s), or makes the Border reset more; a
 * connection with one keeps the raised limits App needs, since App resets a stream for every delivery it gives up
 * and the Border resets every tunnel whose target closes first.
 */
class Http2GuardTlsTest {

    private static TestPki borderCa;
    private static TestPki appCa;
    private static ConfigurableApplicationContext border;
    private static int port;

    @BeforeAll
    static void start() {
        borderCa = TestPki.create("border CA");
        appCa = TestPki.create("app CA");
        TestPki.Issued identity = borderCa.border("border-h2tls");
        border = new SpringApplicationBuilder(BorderApplication.class, InMemoryRegistryConfiguration.class)
                .run(
                        "--server.port=0",
                        "--egress.border.id=border-h2tls",
                        "--egress.border.ips=127.0.0.2",
                        "--" + BorderTestProperties.LOOPBACK_IPS,
                        "--egress.border.advertised-url=https://127.0.0.1:8181",
                        "--egress.security.internal-token=" + Tokens.INTERNAL,
                        "--" + BorderTestProperties.OPERATOR,
                        "--egress.trust.certificate=" + identity.certificate(),
                        "--egress.trust.private-key=" + identity.privateKey(),
                        "--egress.trust.app-ca=" + appCa.caPem());
        port = ((WebServerApplicationContext) border).getWebServer().getPort();
    }

    @AfterAll
    static void stop() {
        if (border != null) {
            border.close();
        }
    }

    private static H2Wire open(TestPki.Issued client) throws Exception {
        SSLSocket socket = (SSLSocket)
                TestPki.context(client, borderCa.caPem()).getSocketFactory().createSocket("127.0.0.1", port);
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setApplicationProtocols(new String[] {"h2"});
        socket.setSSLParameters(parameters);
        socket.startHandshake();
        assertThat(socket.getApplicationProtocol()).isEqualTo("h2");
        return new H2Wire(socket, port);
    }

    private static double rapidResetCloses() {
        return border.getBean(MeterRegistry.class)
                .get("egress.server.http2.closed")
                .tag("reason", "rapid-reset")
                .counter()
                .count();
    }

    @Test
    void closesAConnectionWithoutAnAppCertificateThatResetsMoreStreamsThanNettysDefault() throws Exception {
        double before = rapidResetCloses();
        try (H2Wire h2 = open(null)) {
            CompletableFuture<Void> written = h2.writeInBackground(h2.resetStreams(250));

            h2.readUntilClosed(Duration.ofSeconds(20));
            written.handle((ok, closedByBorder) -> null).get(20, TimeUnit.SECONDS);
        }
        assertThat(rapidResetCloses()).isEqualTo(before + 1);
    }

    @Test
    void keepsAConnectionWithoutAnAppCertificateThatStaysUnderTheLimit() throws Exception {
        try (H2Wire h2 = open(null)) {
            CompletableFuture<Void> written = h2.writeInBackground(h2.resetStreams(150), H2Wire.ping("under200"));

            assertThat(h2.readUntil(PING)).as("the PING's acknowledgement").endsWith("found");
            written.get(20, TimeUnit.SECONDS);
        }
    }

    @Test
    void keepsTheRaisedLimitForAConnectionWithAVerifiedAppCertificate() throws Exception {
        double before = rapidResetCloses();
        try (H2Wire h2 = open(appCa.app("app-1"))) {
            CompletableFuture<Void> written = h2.writeInBackground(h2.resetStreams(500), H2Wire.ping("appcert!"));

            assertThat(h2.readUntil(PING)).as("the PING's acknowledgement").endsWith("found");
            written.get(20, TimeUnit.SECONDS);
        }
        assertThat(rapidResetCloses()).isEqualTo(before);
    }

    @Test
    void keepsAConnectionWithAVerifiedAppCertificateThatTheBorderResetsMoreStreamsThanNettysDefault() throws Exception {
        try (H2Wire h2 = open(appCa.app("app-1"))) {
            CompletableFuture<Void> written = h2.writeInBackground(h2.openStreams(350), H2Wire.ping("tunnels!"));

            List<String> seen = h2.readUntil(PING);
            assertThat(seen)
                    .as("the PING's acknowledgement after the Border's resets")
                    .endsWith("found");
            assertThat(seen.stream().filter(frame -> frame.startsWith(H2Wire.RST_STREAM + "/")))
                    .as("resets the Border sent")
                    .hasSizeGreaterThan(200);
            written.get(20, TimeUnit.SECONDS);
        }
    }

    @Test
    void closesAConnectionWithoutAnAppCertificateThatMakesTheBorderResetMoreStreamsThanNettysDefault()
            throws Exception {
        double before = rapidResetCloses();
        try (H2Wire h2 = open(null)) {
            CompletableFuture<Void> written = h2.writeInBackground(h2.openStreams(350));

            h2.readUntilClosed(Duration.ofSeconds(20));
            written.handle((ok, closedByBorder) -> null).get(20, TimeUnit.SECONDS);
        }
        assertThat(rapidResetCloses()).isEqualTo(before + 1);
    }
}
