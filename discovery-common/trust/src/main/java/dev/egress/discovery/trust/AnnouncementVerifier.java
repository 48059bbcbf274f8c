package dev.egress.discovery.trust;

import dev.egress.discovery.files.hash.Sha256;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.AnnouncementCodec;
import dev.egress.discovery.registry.AnnouncementReader;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.InvalidAnnouncementException;
import dev.egress.discovery.registry.RejectedAnnouncementException;
import dev.egress.discovery.registry.RejectionReason;
import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Read side of authenticated announcements (docs/architecture.md, "The trust chain"): App routes only on
 * owner data that a Border holding an operator-issued credential for that {@code borderId} signed. In order,
 * the data must be a {@link SignedEnvelope}; its chain must lead to the Border CA and be valid now; the
 * signature (algorithm taken from the certificate's key, never from the data) must verify over the carried
 * payload bytes; the payload must pass every codec rule; the leaf certificate must name
 * {@code spiffe://<domain>/border/<borderId>} of the payload; {@code publishedAt} may lie at most
 * {@code maxSkew} in the future; the endpoint must be {@code https}; every announced IP (and every bind
 * address behind a NAT) must be an IP SAN of the leaf ({@link IpAuthorisation}: a credential that claims one
 * foreign IP is trusted for none); the signed validity window {@code publishedAt + validFor} must not have
 * ended; and {@code (publishedAt, generation)} must not be older than the newest this verifier accepted for
 * that Border ({@link HighWaterMarks}), so a captured announcement replayed later is refused. Everything
 * App acts on (id, endpoint, IPs and statuses, generation, publishedAt, the window) is inside the signed
 * bytes.
 *
 * <p>Verified results are cached by the SHA-256 digest of the owner bytes (a poll every 500 ms re-reads
 * unchanged data; the digest keeps the cache's memory independent of the payload size), at most
 * {@value #CACHE_ENTRIES} entries, until the chain's earliest expiry or the end of the window, or until the
 * CA bundle changes. The replay check runs on every read, cached or not: a cached announcement becomes a
 * replay as soon as a newer one of its Border was accepted.
 */
public final class AnnouncementVerifier implements AnnouncementReader {

    private static final int CACHE_ENTRIES = 4096;
    /** Borders whose newest publish is remembered; more than any fleet, fewer than an attacker's ids. */
    private static final int HIGH_WATER_ENTRIES = 4096;

    /** One cached outcome: an announcement, or the rejection of the same bytes. */
    private record Verified(
            Announcement announcement,
            RejectedAnnouncementException rejection,
            Instant validUntil,
            TrustBundle bundle) {}

    /** A rejection is re-examined after this (a certificate that was not yet valid may have become so). */
    private static final Duration REJECTION_TTL = Duration.ofMinutes(1);

    private final AnnouncementCodec codec = new AnnouncementCodec();
    private final Supplier<TrustBundle> borderCa;
    private final String trustDomain;
    private final Clock clock;
    private final Duration maxSkew;
    private final HighWaterMarks highWater = new HighWaterMarks(HIGH_WATER_ENTRIES);
    private final Map<ByteBuffer, Verified> cache = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<ByteBuffer, Verified> eldest) {
            return size() > CACHE_ENTRIES;
        }
    };

    /**
     * Creates the verifier.
     *
     * @param borderCa    the CA certificates issuing Border identities (current; may be reloaded)
     * @param trustDomain the SPIFFE trust domain
     * @param clock       the clock for validity and skew
     * @param maxSkew     how far {@code publishedAt} may lie in the future
     */
    public AnnouncementVerifier(Supplier<TrustBundle> borderCa, String trustDomain, Clock clock, Duration maxSkew) {
        this.borderCa = Objects.requireNonNull(borderCa, "borderCa");
        this.trustDomain = Objects.requireNonNull(trustDomain, "trustDomain");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.maxSkew = Objects.requireNonNull(maxSkew, "maxSkew");
    }

    /**
     * For {@code egress.security.insecure-local} only: accepts bare announcements and signed ones
     * without checking anything but the codec rules (the envelope's payload is read unverified).
     *
     * @return the reader
     */
    public static AnnouncementReader unverifiedForInsecureLocal() {
        AnnouncementCodec codec = new AnnouncementCodec();
        return data -> {
            try {
                JsonNode root = SignedEnvelope.parse(data);
                return codec.decode(
                        SignedEnvelope.looksSigned(root)
                                ? SignedEnvelope.decode(root).payload()
                                : data);
            } catch (InvalidAnnouncementException e) {
                // Not an envelope (e.g. non-ASCII): let the codec judge the bare bytes.
                try {
                    return codec.decode(data);
                } catch (InvalidAnnouncementException bare) {
                    throw new RejectedAnnouncementException(RejectionReason.MALFORMED, bare.getMessage(), null);
                }
            }
        };
    }

    @Override
    public Announcement read(byte[] data) {
        Instant now = clock.instant();
        TrustBundle bundle = borderCa.get();
        ByteBuffer key = data == null ? null : digest(data);
        if (key != null) {
            Verified cached;
            synchronized (cache) {
                cached = cache.get(key);
            }
            if (cached != null && cached.bundle() == bundle && now.isBefore(cached.validUntil())) {
                return notReplayed(result(cached));
            }
        }
        Verified verified;
        try {
            verified = verify(data, bundle, now);
        } catch (RejectedAnnouncementException e) {
            if (e.reason() == RejectionReason.PUBLISHED_IN_FUTURE || key == null) {
                throw e; // not cached: once the clock catches up, the same bytes may be fine
            }
            verified = new Verified(null, e, now.plus(REJECTION_TTL), bundle);
        }
        if (key != null) {
            synchronized (cache) {
                cache.put(key, verified);
            }
        }
        return notReplayed(result(verified));
    }

    private Announcement notReplayed(Announcement announcement) {
        HighWaterMarks.Mark newer = highWater.admit(announcement);
        if (newer != null) {
            throw rejected(
                    RejectionReason.REPLAYED,
                    "publishedAt %s generation %d is older than the newest accepted from %s (publishedAt %s generation %d)"
                            .formatted(
                                    announcement.publishedAt(),
                                    announcement.generation(),
                                    announcement.borderId(),
                                    newer.publishedAt(),
                                    newer.generation()),
                    announcement.borderId());
        }
        return announcement;
    }

    private static ByteBuffer digest(byte[] data) {
        return ByteBuffer.wrap(Sha256.of(data));
    }

    private static Announcement result(Verified verified) {
        if (verified.rejection() != null) {
            throw verified.rejection();
        }
        return verified.announcement();
    }

    private Verified verify(byte[] data, TrustBundle bundle, Instant now) {
        SignedEnvelope envelope;
        try {
            JsonNode root = SignedEnvelope.parse(data);
            if (!SignedEnvelope.looksSigned(root)) {
                throw rejected(
                        RejectionReason.UNSIGNED, "a bare announcement (expected: a signed envelope)", claimedId(data));
            }
            envelope = SignedEnvelope.decode(root);
        } catch (InvalidAnnouncementException e) {
            throw rejected(RejectionReason.MALFORMED, e.getMessage(), null);
        }
        BorderId claimed = claimedId(envelope.payload());
        List<X509Certificate> chain = certificates(envelope.chain(), claimed);
        try {
            bundle.verify(chain, now);
        } catch (UntrustedChainException e) {
            throw rejected(
                    RejectionReason.UNTRUSTED_CERTIFICATE,
                    "certificate chain not issued by egress.trust.border-ca: " + e.getMessage(),
                    claimed);
        }
        X509Certificate leaf = chain.get(0);
        if (!Signatures.valid(leaf, envelope)) {
            throw rejected(
                    RejectionReason.BAD_SIGNATURE,
                    "signature does not verify with the certificate of " + SpiffeId.of(leaf),
                    claimed);
        }
        Announcement announcement;
        try {
            announcement = codec.decode(envelope.payload());
        } catch (InvalidAnnouncementException e) {
            throw rejected(RejectionReason.MALFORMED, e.getMessage(), claimed);
        }
        SpiffeId expected = SpiffeId.border(trustDomain, announcement.borderId());
        List<SpiffeId> named = SpiffeId.of(leaf);
        if (!named.contains(expected)) {
            throw rejected(
                    RejectionReason.IDENTITY_MISMATCH,
                    "certificate names %s (expected: %s)".formatted(named.isEmpty() ? "no SPIFFE id" : named, expected),
                    announcement.borderId());
        }
        if (announcement.publishedAt().isAfter(now.plus(maxSkew))) {
            throw new RejectedAnnouncementException(
                    RejectionReason.PUBLISHED_IN_FUTURE,
                    "publishedAt %s is more than %s ahead of %s".formatted(announcement.publishedAt(), maxSkew, now),
                    announcement.borderId());
        }
        if (!"https".equals(announcement.endpoint().getScheme().toLowerCase(Locale.ROOT))) {
            throw rejected(
                    RejectionReason.PLAINTEXT_ENDPOINT,
                    "endpoint %s (expected: https)".formatted(announcement.endpoint()),
                    announcement.borderId());
        }
        requireAuthorisedIps(leaf, announcement);
        Instant validUntil = requireWithinWindow(announcement, now);
        Instant chainExpiry = TrustBundle.expiryOf(chain);
        return new Verified(announcement, null, validUntil.isBefore(chainExpiry) ? validUntil : chainExpiry, bundle);
    }

    private static void requireAuthorisedIps(X509Certificate leaf, Announcement announcement) {
        List<EgressIp> unauthorised = IpAuthorisation.unauthorised(leaf, announcement);
        if (!unauthorised.isEmpty()) {
            throw rejected(
                    RejectionReason.IP_NOT_AUTHORISED,
                    "announces %s, not among the certificate's IP SANs %s (expected: only IPs the Border's credential names)"
                            .formatted(unauthorised, IpAuthorisation.describe(leaf)),
                    announcement.borderId());
        }
    }

    private static Instant requireWithinWindow(Announcement announcement, Instant now) {
        Instant validUntil = announcement
                .validUntil()
                .orElseThrow(() -> rejected(
                        RejectionReason.EXPIRED,
                        "no validFor (expected: a signed validity window; publish from a Border that signs one)",
                        announcement.borderId()));
        if (!now.isBefore(validUntil)) {
            throw rejected(
                    RejectionReason.EXPIRED,
                    "valid until %s (publishedAt %s + validFor %s), now %s"
                            .formatted(validUntil, announcement.publishedAt(), announcement.validFor(), now),
                    announcement.borderId());
        }
        return validUntil;
    }

    private static List<X509Certificate> certificates(List<byte[]> der, BorderId claimed) {
        try {
            CertificateFactory factory = CertificateFactory.getInstance("X.509");
            List<X509Certificate> chain = new ArrayList<>(der.size());
            for (byte[] certificate : der) {
                chain.add((X509Certificate) factory.generateCertificate(new ByteArrayInputStream(certificate)));
            }
            return chain;
        } catch (CertificateException | ClassCastException e) {
            throw rejected(
                    RejectionReason.MALFORMED, "chain: unreadable certificate (" + e.getMessage() + ")", claimed);
        }
    }

    /** The id the bytes claim, for display only: nothing is verified here. */
    private @Nullable BorderId claimedId(byte[] payload) {
        try {
            return codec.decode(payload).borderId();
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static RejectedAnnouncementException rejected(RejectionReason reason, String detail, BorderId claimed) {
        return new RejectedAnnouncementException(reason, detail, claimed);
    }
}
