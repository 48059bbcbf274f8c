package dev.egress.system;

import dev.egress.discovery.trust.testing.TestPki;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The platform's PKI for App tests: a Border CA and an App CA made once per test JVM by keytool, an App
 * identity, and Border identities issued on demand. Runs tests on the secure path: signed
 * announcements and mutual TLS between App and Borders.
 */
final class TestTrust {

    private static TestTrust shared;

    private final TestPki borderCa;
    private final TestPki appCa;
    private final TestPki.Issued app;

    private TestTrust() {
        borderCa = TestPki.create("test Border CA");
        appCa = TestPki.create("test App CA");
        app = appCa.app("app-test");
    }

    /**
     * The PKI of this JVM.
     *
     * @return the shared instance
     */
    static synchronized TestTrust shared() {
        if (shared == null) {
            shared = new TestTrust();
        }
        return shared;
    }

    /**
     * The Border CA.
     *
     * @return the CA
     */
    TestPki borderCa() {
        return borderCa;
    }

    /**
     * The App CA.
     *
     * @return the CA
     */
    TestPki appCa() {
        return appCa;
    }

    /**
     * Trust arguments of a Border process, with a fresh identity for it.
     *
     * @param borderId the Border
     * @param ips      the IPs its certificate authorises (IP SANs)
     * @return {@code --egress.trust.*} arguments
     */
    List<String> borderArgs(String borderId, List<String> ips) {
        TestPki.Issued border = borderCa.border(borderId, ips);
        return List.of(
                "--egress.trust.certificate=" + border.certificate(),
                "--egress.trust.private-key=" + border.privateKey(),
                "--egress.trust.app-ca=" + appCa.caPem());
    }

    /**
     * App's trust properties.
     *
     * @param registry the test's dynamic properties
     */
    void appProperties(DynamicPropertyRegistry registry) {
        registry.add("egress.trust.certificate", () -> app.certificate().toString());
        registry.add("egress.trust.private-key", () -> app.privateKey().toString());
        registry.add("egress.trust.border-ca", () -> borderCa.caPem().toString());
    }

    /**
     * A JDK client for a test's own calls to Borders (probes, operator API): trusts the Border CA,
     * presents no certificate.
     *
     * @return the client
     */
    HttpClient operatorClient() {
        return HttpClient.newBuilder()
                .sslContext(TestPki.context(null, borderCa.caPem()))
                .connectTimeout(Duration.ofSeconds(10))
                .build();
    }
}
