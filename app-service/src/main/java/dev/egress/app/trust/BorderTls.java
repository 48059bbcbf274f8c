package dev.egress.app.trust;

import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.trust.IdentityKeyManager;
import dev.egress.discovery.trust.PeerTrustManager;
import dev.egress.discovery.trust.TlsProvider;
import dev.egress.discovery.trust.TrustMaterialException;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.KeyManagerFactoryWrapper;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import reactor.netty.http.client.HttpClient;

/**
 * Makes App's connections to one Border mutual TLS: App presents its current identity, and the
 * handshake fails unless the server's chain leads to the Border CA and its leaf names
 * {@code spiffe://<domain>/border/<borderId>} of the route. A failed handshake means nothing was
 * written, not even the internal token, so the attempt counts as "not sent". Host names are not
 * checked: the registry says where a Border is, only the CA says who it is. One TLS context per
 * Border client; the key and trust managers read the files' current content on every handshake.
 *
 * <p>The context's session cache lets a new connection to the same Border resume the TLS session of an
 * earlier one (TLS 1.3 tickets): no certificate signature or chain exchange, and still the trust check, which
 * {@link PeerTrustManager} runs again on the resumed session's chain. Being per Border, a cache can only
 * offer a Border a session that was verified as that same Border.
 */
public final class BorderTls {

    /**
     * How long a session may be resumed: long enough for pool churn and reconnects after a reset, short enough
     * that a rotated Border certificate is seen on a full handshake within minutes.
     */
    static final long SESSION_TIMEOUT_SECONDS = 300;

    private final AppTrust.Material material;
    private final String domain;
    private final TlsProvider.Choice provider;

    BorderTls(AppTrust.Material material, String domain, TlsProvider.Choice provider) {
        this.material = material;
        this.domain = domain;
        this.provider = provider;
    }

    /**
     * Secures a client for one Border, optionally offering HTTP/2 through ALPN.
     *
     * @param client   the client (its pool is the Border's)
     * @param borderId the Border the route names
     * @param http2    offer {@code h2} first and {@code http/1.1} second in ALPN (a Border that does not
     *                 speak HTTP/2 picks HTTP/1.1); false offers nothing, as before HTTP/2
     * @return the client, speaking TLS and verifying that Border
     */
    public HttpClient secure(HttpClient client, BorderId borderId, boolean http2) {
        SslContext context;
        try {
            SslContextBuilder builder = SslContextBuilder.forClient()
                    .sslProvider(provider.provider())
                    .sessionTimeout(SESSION_TIMEOUT_SECONDS)
                    .keyManager(new KeyManagerFactoryWrapper(new IdentityKeyManager(material.identity())))
                    .trustManager(PeerTrustManager.border(material.borderCa(), domain, borderId))
                    .endpointIdentificationAlgorithm(null);
            if (http2) {
                builder.applicationProtocolConfig(new ApplicationProtocolConfig(
                        ApplicationProtocolConfig.Protocol.ALPN,
                        ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                        ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                        ApplicationProtocolNames.HTTP_2,
                        ApplicationProtocolNames.HTTP_1_1));
            }
            context = builder.build();
        } catch (SSLException e) {
            throw new TrustMaterialException("cannot build the TLS context for Border " + borderId, e);
        }
        return client.secure(spec -> spec.sslContext(context).handlerConfigurator(handler -> {
            SSLEngine engine = handler.engine();
            SSLParameters parameters = engine.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm(null);
            engine.setSSLParameters(parameters);
        }));
    }
}
