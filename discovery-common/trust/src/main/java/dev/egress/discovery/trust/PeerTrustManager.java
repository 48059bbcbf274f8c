package dev.egress.discovery.trust;

import dev.egress.discovery.registry.BorderId;
import io.netty.handler.ssl.ResumableX509ExtendedTrustManager;
import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

    /** Chains remembered as passed: far more than the Apps (or Borders) one peer talks to. */
    private static final int PASSED_CHAINS = 256;

    /**
     * A chain that passed against a bundle, and the time its certificates are all valid in.
     *
     * @param bundle the bundle it was validated against
     * @param from   the latest {@code notBefore} of the chain
     * @param until  the earliest {@code notAfter} of the chain
     */
    private record Passed(TrustBundle bundle, Instant from, Instant until) {

        static Passed of(List<X509Certificate> chain, TrustBundle bundle) {
            Instant from = Instant.MIN;
            Instant until = Instant.MAX;
            for (X509Certificate certificate : chain) {
                Instant notBefore = certificate.getNotBefore().toInstant();
                Instant notAfter = certificate.getNotAfter().toInstant();
                from = notBefore.isAfter(from) ? notBefore : from;
                until = notAfter.isBefore(until) ? notAfter : until;
            }
            return new Passed(bundle, from, until);
        }

        boolean holds(Instant now) {
            return !now.isBefore(from) && !now.isAfter(until);
        }
    }

    private final Supplier<TrustBundle> bundle;
    private final Predicate<SpiffeId> accepted;
    private final String expected;
    private final Clock clock;
    private final LongAdder resumed = new LongAdder();
    private final LongAdder verified = new LongAdder();
    /**
     * Chains that passed, by the chain as presented: the Border checks the App certificate of every forward and tunnel
     * call, and a connection presents the chain its handshake did, so a chain is validated (PKIX, signatures and all)
     * once per CA bundle, not once per call. A hit still needs the same bundle instance (a reloaded CA file is a new
     * one) and a time within every certificate's validity; only successes are kept.
     */
    private final Map<List<X509Certificate>, Passed> passed = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<List<X509Certificate>, Passed> eldest) {
            return size() > PASSED_CHAINS;
        }
    };

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
        List<X509Certificate> presented = List.of(chain);
        TrustBundle current = bundle.get();
        Instant now = clock.instant();
        Passed before;
        synchronized (passed) {
            before = passed.get(presented);
        }
        if (before != null && before.bundle() == current && before.holds(now)) {
            return;
        }
        verify(presented, current, now);
        synchronized (passed) {
            passed.put(presented, Passed.of(presented, current));
        }
    }

    /** The full check: the chain up to an anchor of the bundle, then the SPIFFE id of its leaf. */
    private void verify(List<X509Certificate> chain, TrustBundle current, Instant now) throws CertificateException {
        verified.increment();
        try {
            current.verify(chain, now);
        } catch (UntrustedChainException e) {
            throw new CertificateException(
                    "certificate of " + SpiffeId.of(chain.get(0)) + " not trusted: " + e.getMessage());
        }
        List<SpiffeId> named = SpiffeId.of(chain.get(0));
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

    /**
     * How many chains went through the full validation (evidence that a connection's calls do not repeat it).
     *
     * @return the count since this trust manager was made
     */
    public long validations() {
        return verified.sum();
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return bundle.get().anchors().toArray(new X509Certificate[0]);
    }
}
