package dev.egress.app.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.discovery.trust.testing.TestPki;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProxyTlsTest {

    @Test
    void aRotatedCertificateServesTheNextConnectionWithoutARestart(@TempDir Path dir) throws Exception {
        TestPki pki = TestPki.create("proxy-tls-test");
        TestPki.Issued first = pki.appServer("proxy-one");
        TestPki.Issued second = pki.appServer("proxy-two");
        TestPki.Issued served = new TestPki.Issued(dir.resolve("tls.crt"), dir.resolve("tls.key"));
        Files.copy(first.certificate(), served.certificate());
        Files.copy(first.privateKey(), served.privateKey());

        ProxyServer server = new ProxyServer(
                TestProxyContexts.of(new SimpleMeterRegistry(), new AtomicInteger()),
                ProxyTls.watching(served.certificate(), served.privateKey(), Duration.ofMillis(100)));
        server.start();
        try {
            assertThat(servedSerial(server.port())).isEqualTo(serial(first));

            served.replaceWith(second);

            await("the rotated certificate is served")
                    .atMost(Duration.ofSeconds(15))
                    .until(() -> servedSerial(server.port()).equals(serial(second)));
        } finally {
            server.stop();
        }
    }

    private static BigInteger serial(TestPki.Issued issued) throws IOException, GeneralSecurityException {
        try (InputStream in = Files.newInputStream(issued.certificate())) {
            return ((X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in))
                    .getSerialNumber();
        }
    }

    /** The serial of the certificate a new TLS connection to the listener is shown (trusting any: only read). */
    private static BigInteger servedSerial(int port) throws IOException, GeneralSecurityException {
        SSLContext client = SSLContext.getInstance("TLS");
        client.init(null, new TrustManager[] {new AnyServer()}, null);
        try (SSLSocket socket = (SSLSocket) client.getSocketFactory().createSocket("127.0.0.1", port)) {
            socket.setSoTimeout(5000);
            socket.startHandshake();
            return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSerialNumber();
        }
    }

    /** Accepts any server: this test reads which certificate is served, it trusts nothing. */
    private static final class AnyServer implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
