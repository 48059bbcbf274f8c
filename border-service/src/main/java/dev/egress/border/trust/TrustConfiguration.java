package dev.egress.border.trust;

import dev.egress.border.BorderProperties;
import dev.egress.border.HostedIps;
import dev.egress.border.SecurityProperties;
import dev.egress.discovery.registry.AnnouncedIp;
import dev.egress.discovery.registry.AnnouncementWriter;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.trust.AnnouncementSigner;
import dev.egress.discovery.trust.Identity;
import dev.egress.discovery.trust.IdentityKeyManager;
import dev.egress.discovery.trust.IpAuthorisation;
import dev.egress.discovery.trust.ReloadingFile;
import dev.egress.discovery.trust.SpiffeId;
import dev.egress.discovery.trust.TlsProvider;
import dev.egress.discovery.trust.TlsProviderProperties;
import dev.egress.discovery.trust.TrustBundle;
import dev.egress.discovery.trust.TrustFiles;
import dev.egress.discovery.trust.TrustMaterialException;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.KeyManagerFactoryWrapper;
import java.util.List;
import java.util.Locale;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import reactor.netty.http.HttpProtocol;
import reactor.netty.http.server.HttpServer;

/**
 * Wires the trust chain of a Border (docs/architecture.md, "The trust chain"): loads {@code egress.trust.*}
 * or refuses to start without it (unless {@code insecure-local}); serves TLS with the identity, asking every
 * client for a certificate of the App CA (optional at the handshake, so probes and operators connect without
 * one; the forward door insists, see {@link ClientCertificates}); signs announcements; and republishes the
 * announcement when the identity is rotated.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(TlsProviderProperties.class)
class TrustConfiguration {

    private static final Logger log = LoggerFactory.getLogger(TrustConfiguration.class);
    private static final int RESETS_PER_WINDOW = 20_000;
    private static final int RESET_WINDOW_SECONDS = 10;

    /** HTTP/2 receive window per stream (bytes), for tunnels' uploads. */
    static final int STREAM_WINDOW = 1 << 20;
    /** How long App may resume a session (as App's side): a rotated certificate shows within minutes. */
    private static final long SESSION_TIMEOUT_SECONDS = 300;

    @Bean
    TrustMode trustMode(TrustProperties trust, SecurityProperties security, BorderProperties border, HostedIps hosted) {
        TrustFiles files = trust.files();
        if (!files.anySet()) {
            if (!security.insecureLocal()) {
                throw new TrustMaterialException(files.names() + ": "
                        + "not set (expected: this Border's PEM certificate chain naming spiffe://" + trust.domain()
                        + "/border/" + border.id() + ", its PKCS#8 key, and the CA issuing App certificates; "
                        + "or egress.security.insecure-local=true for local runs only)");
            }
            log.warn("egress.security.insecure-local: no trust material; serving plaintext, publishing UNSIGNED "
                    + "announcements and accepting forwards from any client holding the internal token");
            return TrustMode.insecure();
        }
        files.requireAll();
        String scheme = String.valueOf(border.advertisedUrl().getScheme()).toLowerCase(Locale.ROOT);
        if (!scheme.equals("https")) {
            throw new TrustMaterialException("egress.border.advertised-url: " + border.advertisedUrl()
                    + " (expected: https, since this Border serves TLS; Apps refuse plaintext endpoints)");
        }
        ReloadingFile<Identity> identity = files.watchIdentity();
        ReloadingFile<TrustBundle> appCa = files.watchPeerCa();
        BorderTrust material = BorderTrust.of(identity, appCa, trust.domain(), BorderId.of(border.id()));
        requireNamesThisBorder(identity.get(), material.id());
        warnUnlessNamesTheseIps(identity.get(), hosted);
        log.info(
                "Trust: serving TLS and signing announcements as {}; forwards accepted from App certificates of {}",
                material.id(),
                trust.appCa());
        return TrustMode.secure(material);
    }

    private static void requireNamesThisBorder(Identity identity, SpiffeId expected) {
        List<SpiffeId> named = SpiffeId.of(identity.leaf());
        if (!named.contains(expected)) {
            throw new TrustMaterialException(("egress.trust.certificate: names %s (expected: %s, from egress.border.id "
                            + "and egress.trust.domain)")
                    .formatted(named.isEmpty() ? "no SPIFFE URI SAN" : named, expected));
        }
    }

    /**
     * Apps reject an announcement of any IP the certificate does not name. Said loudly, but the Border still
     * starts: the check that matters is App's (a holder of the key can run any code), and a certificate
     * renewed with the missing IPs fixes a running Border without a restart.
     */
    private static void warnUnlessNamesTheseIps(Identity identity, HostedIps hosted) {
        List<EgressIp> missing = unauthorised(identity, hosted);
        if (!missing.isEmpty()) {
            log.error(
                    "egress.trust.certificate does not name {} of egress.border.ips as IP SANs (it names {}): Apps"
                            + " reject every announcement of this Border (ip-not-authorised) until it does",
                    missing,
                    IpAuthorisation.describe(identity.leaf()));
        }
    }

    private static List<EgressIp> unauthorised(Identity identity, HostedIps hosted) {
        List<AnnouncedIp> ips = hosted.bindByPublic().entrySet().stream()
                .map(e -> new AnnouncedIp(e.getKey(), e.getValue(), IpStatus.ACTIVE))
                .toList();
        return IpAuthorisation.unauthorised(identity.leaf(), ips);
    }

    /** The TLS implementation of the server and of the clients to https targets, chosen and logged once. */
    @Bean
    TlsProvider.Choice tlsProvider(TlsProviderProperties properties, TrustMode mode) {
        TlsProvider.Choice choice = properties.provider().choose();
        log.info(
                "{}, for {}https targets",
                choice.describe(),
                mode.material().isPresent() ? "the server (App's mutual TLS) and " : "");
        return choice;
    }

    @Bean
    AnnouncementWriter announcementWriter(TrustMode mode, TrustProperties trust) {
        return mode.material()
                .<AnnouncementWriter>map(t -> new AnnouncementSigner(t.identity(), trust.announcementValidity()))
                .orElseGet(AnnouncementWriter::unsignedForInsecureLocal);
    }

    @Bean
    ClientCertificates clientCertificates(TrustMode mode) {
        return new ClientCertificates(mode.material().map(BorderTrust::apps).orElse(null));
    }

    /**
     * Serves TLS with the Border's identity, or plaintext in insecure-local mode; HTTP/2 either way next to
     * HTTP/1.1 (h2 chosen by ALPN on TLS, h2c by prior knowledge or upgrade in plaintext), so App can carry
     * thousands of calls over a few connections while probes and operators keep using HTTP/1.1.
     */
    @Bean
    NettyServerCustomizer borderTls(TrustMode mode, TlsProvider.Choice provider, HostedIps hosted) {
        if (mode.material().isEmpty()) {
            return server -> http2(server).protocol(HttpProtocol.HTTP11, HttpProtocol.H2C);
        }
        BorderTrust material = mode.material().get();
        material.identity().onChange(next -> {
            if (!SpiffeId.of(next.leaf()).contains(material.id())) {
                log.error(
                        "Rotated egress.trust.certificate names {} (expected: {}): Apps will refuse this Border",
                        SpiffeId.of(next.leaf()),
                        material.id());
            }
            warnUnlessNamesTheseIps(next, hosted);
            // The registrar (registration) republishes the announcement signed with it: RotationRepublish.
        });
        SslContext context = serverContext(material, provider);
        return server ->
                http2(server).protocol(HttpProtocol.HTTP11, HttpProtocol.H2).secure(spec -> spec.sslContext(context));
    }

    /**
     * Netty closes an HTTP/2 connection after 200 stream resets in 30 s (its "rapid reset" guard), and, as a server,
     * after it has itself sent 200 resets in 30 s (its "MadeYouReset" guard). App resets a stream for every delivery
     * it gives up (client gone, deadline), and one connection carries up to 100 calls: at that limit a burst of
     * cancels would kill every other call on the connection. The Border resets a tunnel's stream whenever the target
     * closes first (the answer is complete while App's side is still open): with Netty's default the 201st such
     * tunnel within 30 s closed the connection, and every tunnel and forward on it (a sender saw its tunnel closed
     * mid-handshake or a 502 {@code border-error}). Both guards stay, sized above what App's admission allows in
     * flight (max-in-flight 4096); {@code Http2Guard} keeps Netty's defaults for connections without a verified App
     * certificate. A tunnel's upload
     * runs through this side's receive window: HTTP/2's default 64 KiB per stream would stall a bulk tunnel once per
     * window, so each stream gets {@value #STREAM_WINDOW} bytes (Netty widens the connection's window to match).
     */
    private static HttpServer http2(HttpServer server) {
        return server.http2Settings(h2 -> h2.maxDecodedRstFramesPerWindow(RESETS_PER_WINDOW, RESET_WINDOW_SECONDS)
                .maxEncodedRstFramesPerWindow(RESETS_PER_WINDOW, RESET_WINDOW_SECONDS)
                .initialWindowSize(STREAM_WINDOW));
    }

    private static SslContext serverContext(BorderTrust trust, TlsProvider.Choice provider) {
        try {
            // The managers read the current files on every handshake: rotation needs no new context (OpenSSL asks
            // the key manager through its certificate callback per full handshake, the JDK through the manager).
            // The context's session cache and ticket keys let App's reconnects resume; PeerTrustManager re-checks
            // the App certificate of a resumed session.
            return SslContextBuilder.forServer(new KeyManagerFactoryWrapper(new IdentityKeyManager(trust.identity())))
                    .sslProvider(provider.provider())
                    .sessionTimeout(SESSION_TIMEOUT_SECONDS)
                    .trustManager(trust.apps())
                    .clientAuth(ClientAuth.OPTIONAL)
                    .applicationProtocolConfig(new ApplicationProtocolConfig(
                            ApplicationProtocolConfig.Protocol.ALPN,
                            ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                            ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                            ApplicationProtocolNames.HTTP_2,
                            ApplicationProtocolNames.HTTP_1_1))
                    .build();
        } catch (SSLException e) {
            throw new TrustMaterialException("cannot build the Border's TLS context", e);
        }
    }
}
