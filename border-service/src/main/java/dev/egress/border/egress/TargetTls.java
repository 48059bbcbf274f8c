package dev.egress.border.egress;

import dev.egress.discovery.trust.TlsProvider;
import io.netty.handler.ssl.SslProvider;
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
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.netty.http.Http11SslContextSpec;
import reactor.netty.http.client.HttpClient;

/**
 * How the egress clients speak TLS to https targets: with the provider of {@code egress.tls.provider} (OpenSSL in
 * native code where it loads), trusting the JDK's default CAs plus the certificates of
 * {@code egress.tls.trusted-certificates} when set. Reactor Netty verifies the host name either way.
 */
final class TargetTls {

    private static final Logger log = LoggerFactory.getLogger(TargetTls.class);

    private final @Nullable TrustManagerFactory trust;
    private final SslProvider provider;

    private TargetTls(@Nullable TrustManagerFactory trust, SslProvider provider) {
        this.trust = trust;
        this.provider = provider;
    }

    /**
     * Reads the configuration; a file that cannot be read or holds no certificate stops the Border.
     *
     * @param tls      the properties
     * @param provider the TLS implementation chosen for this Border
     * @return the trust to apply
     * @throws IllegalStateException naming the property, if the file is unusable
     */
    static TargetTls from(TlsProperties tls, TlsProvider.Choice provider) {
        String location = tls.trustedCertificates().strip();
        if (location.isEmpty()) {
            return new TargetTls(null, provider.provider());
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
            return new TargetTls(trust, provider.provider());
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(
                    "egress.tls.trusted-certificates: cannot build a trust store from %s: %s"
                            .formatted(location, e.getMessage()),
                    e);
        }
    }

    /**
     * Applies the provider and the trust to a client. Only https URLs use it: Reactor Netty drops the TLS
     * configuration for a plain http URL.
     *
     * @param client a client
     * @return the client, secured with this provider and, if extra CAs are configured, the combined trust
     */
    HttpClient apply(HttpClient client) {
        TrustManagerFactory extra = trust;
        return client.secure(spec ->
                spec.sslContext(Http11SslContextSpec.forClient().configure(b -> {
                    b.sslProvider(provider);
                    if (extra != null) {
                        b.trustManager(extra);
                    }
                })));
    }

    /**
     * The provider the clients use.
     *
     * @return OpenSSL or the JDK
     */
    SslProvider provider() {
        return provider;
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
