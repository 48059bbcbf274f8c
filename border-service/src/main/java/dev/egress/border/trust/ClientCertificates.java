package dev.egress.border.trust;

import dev.egress.discovery.trust.PeerTrustManager;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import org.springframework.http.server.reactive.SslInfo;
import org.springframework.web.server.ServerWebExchange;

/**
 * The forward door's second look at the client: the TLS handshake already refused certificates that do
 * not chain to the App CA, but it lets clients without any certificate in (probes, operators). A
 * forward needs an App certificate; this is checked on the matched route, by the handler, never on a
 * path prefix. In {@code insecure-local} mode (no trust material) everything passes.
 */
public final class ClientCertificates {

    private final PeerTrustManager apps;

    ClientCertificates(PeerTrustManager apps) {
        this.apps = apps;
    }

    /**
     * Checks the client of an exchange.
     *
     * @param exchange the exchange
     * @throws ClientCertificateRequiredException if trust is configured and the client presented no valid App certificate
     */
    public void requireApp(ServerWebExchange exchange) {
        if (apps == null) {
            return;
        }
        SslInfo ssl = exchange.getRequest().getSslInfo();
        X509Certificate[] chain = ssl == null ? null : ssl.getPeerCertificates();
        try {
            apps.check(chain);
        } catch (CertificateException e) {
            throw new ClientCertificateRequiredException(e.getMessage());
        }
    }

    /**
     * Whether forwards require an App certificate.
     *
     * @return true when trust material is configured
     */
    public boolean enforced() {
        return apps != null;
    }
}
