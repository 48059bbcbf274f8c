package dev.egress.border.trust;

import dev.egress.discovery.trust.PeerTrustManager;
import io.netty.channel.Channel;
import io.netty.handler.ssl.SslHandler;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import javax.net.ssl.SSLPeerUnverifiedException;
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
     * Whether a connection's client proved an App certificate in its TLS handshake. Never true without trust
     * material (insecure-local: no client is verified) or before the handshake has completed.
     *
     * @param channel a server connection
     * @return true for a verified App certificate
     */
    public boolean isApp(Channel channel) {
        SslHandler tls = apps == null ? null : channel.pipeline().get(SslHandler.class);
        if (tls == null || !tls.handshakeFuture().isSuccess()) {
            return false;
        }
        try {
            Certificate[] presented = tls.engine().getSession().getPeerCertificates();
            X509Certificate[] chain = Arrays.copyOf(presented, presented.length, X509Certificate[].class);
            apps.check(chain);
            return true;
        } catch (SSLPeerUnverifiedException | CertificateException | ArrayStoreException e) {
            return false;
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
