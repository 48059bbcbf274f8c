package dev.egress.discovery.trust;

import dev.egress.discovery.registry.BorderId;
import io.netty.handler.ssl.ResumableX509ExtendedTrustManager;
import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Accepts a TLS peer only if its chain leads to the current {@link TrustBundle} and its leaf names an
 * expected SPIFFE id. Used on both ends of App → Border: App expects exactly
 * {@code spiffe://<domain>/border/<borderId of the route>} before it sends a byte, a Border expects
 * any {@code spiffe://<domain>/app/<name>}. Host names are deliberately not what is checked: the
 * registry says where a Border is, only the CA says who it is.
 *
 * <p>A resumed TLS session (a ticket or cached session instead of a certificate exchange) is checked again:
 * Netty hands its peer chain to {@link #resumeServerTrusted}/{@link #resumeClientTrusted}, which apply the
 * same rule against the current CA file, so resumption skips the asymmetric cryptography, never the check.
 */
public final class PeerTrustManager extends X509ExtendedTrustManager implements ResumableX509ExtendedTrustManager {

    private final Supplier<TrustBundle> bundle;
    private final Predicate<SpiffeId> accepted;
    private final String expected;
    private final Clock clock;
    private final LongAdder resumed = new LongAdder();

    private PeerTrustManager(Supplier<TrustBundle> bundle, Predicate<SpiffeId> accepted, String expected, Clock clock) {
        this.bundle = Objects.requireNonNull(bundle, "bundle");
        this.accepted = accepted;
        this.expected = expected;
        this.clock = clock;
    }

    /**
     * App's view of one Border: the server certificate must name this Border.
     *
     * @param borderCa    CA certificates issuing Border identities
     * @param trustDomain the trust domain
     * @param borderId    the Border the route names
     * @return the trust manager
     */
    public static PeerTrustManager border(Supplier<TrustBundle> borderCa, String trustDomain, BorderId borderId) {
        SpiffeId id = SpiffeId.border(trustDomain, borderId);
        return new PeerTrustManager(borderCa, id::equals, id.uri(), Clock.systemUTC());
    }

    /**
     * A Border's view of its clients: any App of the trust domain.
     *
     * @param appCa       CA certificates issuing App identities
     * @param trustDomain the trust domain
     * @return the trust manager
     */
    public static PeerTrustManager apps(Supplier<TrustBundle> appCa, String trustDomain) {
        return new PeerTrustManager(
                appCa,
                id -> id.trustDomain().equals(trustDomain) && id.role().equals(SpiffeId.APP),
                "spiffe://" + trustDomain + "/app/<name>",
                Clock.systemUTC());
    }

    /**
     * Whether a chain is acceptable, as a value (for checks outside a handshake).
     *
     * @param chain the chain, leaf first
     * @throws CertificateException naming why not
     */
    public void check(X509Certificate[] chain) throws CertificateException {
        if (chain == null || chain.length == 0) {
            throw new CertificateException("no certificate presented (expected: " + expected + ")");
        }
        try {
            bundle.get().verify(List.of(chain), clock.instant());
        } catch (UntrustedChainException e) {
            throw new CertificateException(
                    "certificate of " + SpiffeId.of(chain[0]) + " not trusted: " + e.getMessage());
        }
        List<SpiffeId> named = SpiffeId.of(chain[0]);
        if (named.stream().noneMatch(accepted)) {
            throw new CertificateException("certificate names %s (expected: %s)"
                    .formatted(named.isEmpty() ? "no SPIFFE id" : named, expected));
        }
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        check(chain);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        check(chain);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        check(chain);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        check(chain);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        check(chain);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        check(chain);
    }

    /**
     * Checks the peer of a resumed session (its chain comes from the session, not from this handshake).
     *
     * @param chain  the chain the session was established with, leaf first
     * @param engine the engine of the resuming handshake
     * @throws CertificateException naming why the chain is no longer acceptable
     */
    @Override
    public void resumeClientTrusted(X509Certificate[] chain, SSLEngine engine) throws CertificateException {
        check(chain);
        resumed.increment();
    }

    /**
     * Checks the peer of a resumed session (its chain comes from the session, not from this handshake).
     *
     * @param chain  the chain the session was established with, leaf first
     * @param engine the engine of the resuming handshake
     * @throws CertificateException naming why the chain is no longer acceptable
     */
    @Override
    public void resumeServerTrusted(X509Certificate[] chain, SSLEngine engine) throws CertificateException {
        check(chain);
        resumed.increment();
    }

    /**
     * How many handshakes resumed a session and passed the check again (evidence that resumption happens).
     *
     * @return the count since this trust manager was made
     */
    public long resumptions() {
        return resumed.sum();
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return bundle.get().anchors().toArray(new X509Certificate[0]);
    }
}
