package dev.egress.border.egress;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.List;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.netty.http.Http11SslContextSpec;
import reactor.netty.http.client.HttpClient;

/**
 * Which CAs the egress clients trust for https targets: the JDK's defaults, plus the certificates of
 * {@code egress.tls.trusted-certificates} when set. Reactor Netty verifies the host name either way.
 */
final class TargetTls {

    private static final Logger log = LoggerFactory.getLogger(TargetTls.class);

    private final TrustManagerFactory trust;

    private TargetTls(TrustManagerFactory trust) {
        this.trust = trust;
    }

    /**
     * Reads the configuration; a file that cannot be read or holds no certificate stops the Border.
     *
     * @param tls the properties
     * @return the trust to apply
     * @throws IllegalStateException naming the property, if the file is unusable
     */
    static TargetTls from(TlsProperties tls) {
        String location = tls.trustedCertificates().strip();
        if (location.isEmpty()) {
            return new TargetTls(null);
        }
        List<X509Certificate> extra = read(Path.of(location));
        try {
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            int n = 0;
            for (X509Certificate ca : defaultAuthorities()) {
                store.setCertificateEntry("default-" + n++, ca);
            }
            for (X509Certificate ca : extra) {
                store.setCertificateEntry("configured-" + n++, ca);
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            log.info(
                    "Trusting {} CA certificate(s) from {} in addition to the JDK's defaults: {}",
                    extra.size(),
                    location,
                    extra.stream()
                            .map(c -> c.getSubjectX500Principal().getName())
                            .toList());
            return new TargetTls(trust);
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(
                    "egress.tls.trusted-certificates: cannot build a trust store from %s: %s"
                            .formatted(location, e.getMessage()),
                    e);
        }
    }

    /**
     * Applies the trust to a client; the JDK defaults need no change.
     *
     * @param client a client
     * @return the client, secured with the combined trust if extra CAs are configured
     */
    HttpClient apply(HttpClient client) {
        if (trust == null) {
            return client;
        }
        return client.secure(
                spec -> spec.sslContext(Http11SslContextSpec.forClient().configure(b -> b.trustManager(trust))));
    }

    private static List<X509Certificate> read(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            Collection<? extends Certificate> parsed =
                    CertificateFactory.getInstance("X.509").generateCertificates(in);
            List<X509Certificate> certificates =
                    parsed.stream().map(X509Certificate.class::cast).toList();
            if (certificates.isEmpty()) {
                throw new IllegalStateException(
                        "egress.tls.trusted-certificates: %s holds no PEM certificate".formatted(file));
            }
            return certificates;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException(
                    "egress.tls.trusted-certificates: cannot read %s: %s".formatted(file, e.getMessage()), e);
        }
    }

    private static List<X509Certificate> defaultAuthorities() throws GeneralSecurityException {
        TrustManagerFactory defaults = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        defaults.init((KeyStore) null);
        for (TrustManager manager : defaults.getTrustManagers()) {
            if (manager instanceof X509TrustManager x509) {
                return List.of(x509.getAcceptedIssuers());
            }
        }
        return List.of();
    }
}
