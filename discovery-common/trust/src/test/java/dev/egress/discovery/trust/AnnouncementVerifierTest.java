package dev.egress.discovery.trust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.egress.discovery.registry.AnnouncedIp;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.AnnouncementCodec;
import dev.egress.discovery.registry.AnnouncementWriter;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.registry.RejectedAnnouncementException;
import dev.egress.discovery.registry.RejectionReason;
import dev.egress.discovery.registry.testing.Announcements;
import dev.egress.discovery.registry.testing.MutableClock;
import dev.egress.discovery.trust.testing.TestPki;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.Signature;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

class AnnouncementVerifierTest {

    private static final Duration SKEW = Duration.ofSeconds(30);
    private static final Duration WINDOW = Duration.ofMinutes(5);
    /** Certificates are issued now, so announcements are published now too. */
    private static Instant now;

    private static TestPki borderCa;
    private static TestPki otherCa;
    private static Identity borderA;
    private static Identity borderB;
    private static Identity rogue;

    private final MutableClock clock = new MutableClock(now);

    @BeforeAll
    static void pki() {
        borderCa = TestPki.create("border CA");
        otherCa = TestPki.create("another CA");
        borderA = load(borderCa.border("border-a", "127.0.0.2", "127.0.0.3", "10.0.0.3"));
        borderB = load(borderCa.border("border-b", "127.0.0.2", "127.0.0.3"));
        rogue = load(otherCa.border("border-a", "127.0.0.2", "127.0.0.3"));
        now = Instant.now().plusSeconds(1);
    }

    private static Identity load(TestPki.Issued issued) {
        try (ReloadingFile<Identity> file = ReloadingFile.identity(
                issued.certificate(),
                issued.privateKey(),
                "egress.trust.certificate",
                "egress.trust.private-key",
                Duration.ofHours(1))) {
            return file.get();
        }
    }

    private AnnouncementVerifier verifier() {
        TrustBundle bundle;
        try (ReloadingFile<TrustBundle> file =
                ReloadingFile.bundle(borderCa.caPem(), "egress.trust.border-ca", Duration.ofHours(1))) {
            bundle = file.get();
        }
        return new AnnouncementVerifier(() -> bundle, "egress.local", clock, SKEW);
    }

    private static Announcement borderAAnnouncement() {
        return Announcements.of("border-a", "https://127.0.0.1:8181", "127.0.0.2", "127.0.0.3")
                .republished(0, now)
                .withValidity(WINDOW);
    }

    private static byte[] signedByA(Announcement announcement) {
        return new AnnouncementSigner(() -> borderA).write(announcement);
    }

    @Test
    void acceptsAnnouncementSignedByTheBorderItNames() {
        byte[] data = new AnnouncementSigner(() -> borderA).write(borderAAnnouncement());

        assertThat(verifier().read(data)).isEqualTo(borderAAnnouncement());
    }

    @Test
    void rejectsBareAnnouncementAsUnsigned() {
        byte[] data = new AnnouncementCodec().encode(borderAAnnouncement());

        assertRejected(data, RejectionReason.UNSIGNED);
    }

    @Test
    void rejectsCertificateFromAnotherCa() {
        byte[] data = new AnnouncementSigner(() -> rogue).write(borderAAnnouncement());

        assertRejected(data, RejectionReason.UNTRUSTED_CERTIFICATE);
    }

    @Test
    void rejectsCertificateNamingAnotherBorder() {
        // border-b holds a real certificate, but for itself: it cannot speak for border-a.
        byte[] data = new AnnouncementSigner(() -> borderB).write(borderAAnnouncement());

        assertRejected(data, RejectionReason.IDENTITY_MISMATCH);
    }

    @Test
    void rejectsPayloadChangedAfterSigning() {
        byte[] signed = new AnnouncementSigner(() -> borderA).write(borderAAnnouncement());
        Announcement disabled = borderAAnnouncement().withIpStatus(EgressIp.of("127.0.0.3"), IpStatus.DISABLED);
        byte[] forged = replacePayload(signed, new AnnouncementCodec().encode(disabled));

        assertRejected(forged, RejectionReason.BAD_SIGNATURE);
    }

    @Test
    void rejectsPublishedAtTooFarInTheFuture() {
        Announcement future =
                borderAAnnouncement().republished(0, clock.instant().plus(SKEW).plusSeconds(5));
        byte[] data = new AnnouncementSigner(() -> borderA).write(future);

        assertRejected(data, RejectionReason.PUBLISHED_IN_FUTURE);
    }

    @Test
    void acceptsPublishedAtWithinTheSkew() {
        Announcement ahead =
                borderAAnnouncement().republished(0, clock.instant().plus(SKEW).minusSeconds(1));
        byte[] data = new AnnouncementSigner(() -> borderA).write(ahead);

        assertThat(verifier().read(data).publishedAt()).isEqualTo(ahead.publishedAt());
    }

    @Test
    void rejectsPlaintextEndpoint() {
        Announcement http = Announcements.of("border-a", "http://127.0.0.1:8181", "127.0.0.2")
                .republished(0, now);
        byte[] data = new AnnouncementSigner(() -> borderA).write(http);

        assertRejected(data, RejectionReason.PLAINTEXT_ENDPOINT);
    }

    @Test
    void rejectsGarbageAsMalformed() {
        assertRejected("{\"payload\":\"%%%\"}".getBytes(StandardCharsets.US_ASCII), RejectionReason.MALFORMED);
        assertRejected(new byte[AnnouncementCodec.MAX_BYTES + 1], RejectionReason.MALFORMED);
        assertRejected(new byte[0], RejectionReason.MALFORMED);
    }

    @Test
    void rejectsExpiredCertificate() {
        byte[] data = new AnnouncementSigner(() -> borderA).write(borderAAnnouncement());
        AnnouncementVerifier verifier = verifier();
        assertThat(verifier.read(data)).isNotNull();

        clock.advance(Duration.ofDays(3)); // test certificates live two days

        assertThatThrownBy(() -> verifier.read(data))
                .isInstanceOfSatisfying(
                        RejectedAnnouncementException.class,
                        e -> assertThat(e.reason()).isEqualTo(RejectionReason.UNTRUSTED_CERTIFICATE));
    }

    @Test
    void rejectionNamesTheClaimedBorder() {
        byte[] data = new AnnouncementSigner(() -> rogue).write(borderAAnnouncement());

        assertThatThrownBy(() -> verifier().read(data))
                .isInstanceOfSatisfying(
                        RejectedAnnouncementException.class,
                        e -> assertThat(e.claimedBorderId().value()).isEqualTo("border-a"));
    }

    @Test
    void unverifiedReaderAcceptsBareAndSignedAnnouncements() {
        byte[] signed = new AnnouncementSigner(() -> rogue).write(borderAAnnouncement());
        byte[] bare = new AnnouncementCodec().encode(borderAAnnouncement());

        assertThat(AnnouncementVerifier.unverifiedForInsecureLocal().read(signed))
                .isEqualTo(borderAAnnouncement());
        assertThat(AnnouncementVerifier.unverifiedForInsecureLocal().read(bare)).isEqualTo(borderAAnnouncement());
    }

    @Test
    void signedEnvelopeCarriesTheExactPayloadBytes() throws Exception {
        byte[] data = new AnnouncementSigner(() -> borderA).write(borderAAnnouncement());
        ObjectNode envelope = (ObjectNode) JsonMapper.builder().build().readTree(data);

        assertThat(Base64.getDecoder().decode(envelope.get("payload").asString()))
                .isEqualTo(new AnnouncementCodec().encode(borderAAnnouncement()));
        assertThat(envelope.get("chain")).hasSize(2);
    }

    // ---- IP ownership: the certificate's IP SANs ----

    @Test
    void rejectsTheWholeAnnouncementWhenOneIpIsNotAmongTheCertificatesIpSans() {
        byte[] data = signedByA(Announcements.of("border-a", "https://127.0.0.1:8181", "127.0.0.2", "127.0.0.6")
                .republished(0, now));

        assertThatThrownBy(() -> verifier().read(data))
                .isInstanceOfSatisfying(RejectedAnnouncementException.class, e -> {
                    assertThat(e.reason()).isEqualTo(RejectionReason.IP_NOT_AUTHORISED);
                    assertThat(e.reason().slug()).isEqualTo("ip-not-authorised");
                    assertThat(e.detail())
                            .contains("[127.0.0.6]")
                            .contains("127.0.0.3")
                            .doesNotContain("[127.0.0.2]");
                    assertThat(e.claimedBorderId().value()).isEqualTo("border-a");
                });
    }

    @Test
    void acceptsTheIpv4MappedSpellingOfAnIpTheCertificateNames() {
        Announcement mapped = Announcements.of("border-a", "https://127.0.0.1:8181", "::ffff:127.0.0.3")
                .republished(0, now);

        // Compared as an address, whichever spelling EgressIp keeps for it.
        assertThat(verifier().read(signedByA(mapped)).ips())
                .extracting(ip -> ip.ip().toInetAddress().getHostAddress())
                .containsExactly("127.0.0.3");
    }

    @Test
    void rejectsAnIpv6AddressThatOnlyLooksLikeAnAuthorisedIpv4One() {
        // ::127.0.0.3 (IPv4-compatible, deprecated) is not ::ffff:127.0.0.3: another address.
        byte[] data = signedByA(Announcements.of("border-a", "https://127.0.0.1:8181", "::127.0.0.3")
                .republished(0, now));

        assertRejected(data, RejectionReason.IP_NOT_AUTHORISED);
    }

    @Test
    void rejectsABindAddressTheCertificateDoesNotName() {
        Announcement nat = Announcement.initial(
                BorderId.of("border-a"),
                URI.create("https://127.0.0.1:8181"),
                List.of(new AnnouncedIp(EgressIp.of("127.0.0.2"), EgressIp.of("10.0.0.9"), IpStatus.ACTIVE)),
                now);

        assertThatThrownBy(() -> verifier().read(signedByA(nat)))
                .isInstanceOfSatisfying(RejectedAnnouncementException.class, e -> {
                    assertThat(e.reason()).isEqualTo(RejectionReason.IP_NOT_AUTHORISED);
                    assertThat(e.detail()).contains("[10.0.0.9]");
                });
    }

    @Test
    void acceptsABindAddressTheCertificateNames() {
        Announcement nat = Announcement.initial(
                BorderId.of("border-a"),
                URI.create("https://127.0.0.1:8181"),
                List.of(new AnnouncedIp(EgressIp.of("127.0.0.2"), EgressIp.of("10.0.0.3"), IpStatus.ACTIVE)),
                now);

        assertThat(verifier().read(signedByA(nat)).ips().get(0).bind().value()).isEqualTo("10.0.0.3");
    }

    @Test
    void unverifiedReaderDoesNotCheckIpSans() {
        byte[] data = signedByA(Announcements.of("border-a", "https://127.0.0.1:8181", "127.0.0.6")
                .republished(0, now));

        assertThat(AnnouncementVerifier.unverifiedForInsecureLocal().read(data).ips())
                .hasSize(1);
    }

    // ---- the validity window ----

    @Test
    void signerStampsItsWindowOnAnAnnouncementWithoutOne() {
        Announcement plain = Announcements.of("border-a", "https://127.0.0.1:8181", "127.0.0.2")
                .republished(0, now);

        Announcement read = verifier().read(new AnnouncementSigner(() -> borderA, Duration.ofMinutes(2)).write(plain));

        assertThat(read.validFor()).isEqualTo(Duration.ofMinutes(2));
        assertThat(new AnnouncementSigner(() -> borderA).validity()).contains(AnnouncementSigner.DEFAULT_VALIDITY);
        assertThat(AnnouncementWriter.unsignedForInsecureLocal().validity()).isEmpty();
    }

    @Test
    void signerRefusesAWindowTheCodecWouldRefuse() {
        assertThatThrownBy(() -> new AnnouncementSigner(() -> borderA, Duration.ofDays(2)))
                .hasMessageContaining("validFor");
    }

    @Test
    void acceptsAnAnnouncementUntilItsWindowEndsAndRejectsItAsExpiredThen() {
        byte[] data = signedByA(borderAAnnouncement());
        AnnouncementVerifier verifier = verifier();
        clock.advance(WINDOW.minusMillis(1));
        assertThat(verifier.read(data)).isEqualTo(borderAAnnouncement()); // from the cache

        clock.advance(Duration.ofMillis(1));

        assertThatThrownBy(() -> verifier.read(data)).isInstanceOfSatisfying(RejectedAnnouncementException.class, e -> {
            assertThat(e.reason()).isEqualTo(RejectionReason.EXPIRED);
            assertThat(e.reason().slug()).isEqualTo("expired");
            assertThat(e.detail()).contains("PT5M");
        });
    }

    @Test
    void rejectsAnExpiredAnnouncementReadForTheFirstTime() {
        byte[] data = signedByA(borderAAnnouncement());
        clock.advance(WINDOW.plusSeconds(1));

        assertRejected(data, RejectionReason.EXPIRED);
    }

    @Test
    void rejectsASignedAnnouncementWithoutAWindow() throws Exception {
        byte[] payload = new AnnouncementCodec().encode(borderAAnnouncement().withValidity(null));
        Signature signature = Signature.getInstance(Signatures.algorithmFor(borderA.key()));
        signature.initSign(borderA.key());
        signature.update(payload);
        List<byte[]> chain = new ArrayList<>();
        for (var certificate : borderA.chain()) {
            chain.add(certificate.getEncoded());
        }
        byte[] data = new SignedEnvelope(payload, signature.sign(), chain).encode();

        assertThatThrownBy(() -> verifier().read(data))
                .isInstanceOfSatisfying(RejectedAnnouncementException.class, e -> {
                    assertThat(e.reason()).isEqualTo(RejectionReason.EXPIRED);
                    assertThat(e.detail()).contains("no validFor");
                });
    }

    // ---- replays: the newest (publishedAt, generation) per Border ----

    @Test
    void rejectsAnAnnouncementOlderThanTheNewestAcceptedFromItsBorder() {
        AnnouncementVerifier verifier = verifier();
        Announcement first = borderAAnnouncement();
        Announcement disabled = first.withIpStatus(EgressIp.of("127.0.0.3"), IpStatus.DISABLED)
                .republished(first.generation(), now.plusSeconds(1));
        byte[] captured = signedByA(first);
        verifier.read(captured);
        verifier.read(signedByA(disabled));

        assertThatThrownBy(() -> verifier.read(captured))
                .isInstanceOfSatisfying(RejectedAnnouncementException.class, e -> {
                    assertThat(e.reason()).isEqualTo(RejectionReason.REPLAYED);
                    assertThat(e.reason().slug()).isEqualTo("replayed");
                    assertThat(e.claimedBorderId().value()).isEqualTo("border-a");
                    assertThat(e.detail()).contains("generation 1").contains("generation 2");
                });
    }

    @Test
    void rejectsAnOlderGenerationWithTheSamePublishTime() {
        AnnouncementVerifier verifier = verifier();
        Announcement newer = borderAAnnouncement().republished(4, now);
        verifier.read(signedByA(newer));

        assertRejected(verifier, signedByA(borderAAnnouncement().republished(3, now)), RejectionReason.REPLAYED);
    }

    @Test
    void acceptsTheSameAnnouncementReadAgainAndReSigned() {
        AnnouncementVerifier verifier = verifier();
        byte[] data = signedByA(borderAAnnouncement());
        byte[] resigned = signedByA(borderAAnnouncement()); // ECDSA: other signature bytes, same payload

        assertThat(resigned).isNotEqualTo(data);
        assertThat(verifier.read(data)).isEqualTo(borderAAnnouncement());
        assertThat(verifier.read(data)).isEqualTo(borderAAnnouncement());
        assertThat(verifier.read(resigned)).isEqualTo(borderAAnnouncement());
    }

    @Test
    void acceptsARestartedBorderWhoseGenerationStartsAgainAtALaterPublishTime() {
        AnnouncementVerifier verifier = verifier();
        verifier.read(signedByA(borderAAnnouncement().republished(41, now)));
        Announcement restarted = borderAAnnouncement().republished(-1, now.plusSeconds(1));

        assertThat(verifier.read(signedByA(restarted)).generation()).isZero();
    }

    @Test
    void keepsOneHighWaterMarkPerBorder() {
        AnnouncementVerifier verifier = verifier();
        verifier.read(signedByA(borderAAnnouncement().republished(9, now.plusSeconds(5))));
        Announcement borderBOld = Announcements.of("border-b", "https://127.0.0.1:8182", "127.0.0.2")
                .republished(0, now)
                .withValidity(WINDOW);

        assertThat(verifier.read(new AnnouncementSigner(() -> borderB).write(borderBOld)))
                .isEqualTo(borderBOld);
    }

    @Test
    void aRejectedAnnouncementDoesNotRaiseTheHighWaterMark() {
        AnnouncementVerifier verifier = verifier();
        Announcement foreignIp = Announcements.of("border-a", "https://127.0.0.1:8181", "127.0.0.6")
                .republished(99, now.plusSeconds(5));
        assertRejected(verifier, signedByA(foreignIp), RejectionReason.IP_NOT_AUTHORISED);

        assertThat(verifier.read(signedByA(borderAAnnouncement()))).isEqualTo(borderAAnnouncement());
    }

    private void assertRejected(byte[] data, RejectionReason reason) {
        assertRejected(verifier(), data, reason);
    }

    private static void assertRejected(AnnouncementVerifier verifier, byte[] data, RejectionReason reason) {
        assertThatThrownBy(() -> verifier.read(data))
                .isInstanceOfSatisfying(
                        RejectedAnnouncementException.class,
                        e -> assertThat(e.reason()).isEqualTo(reason));
    }

    private static byte[] replacePayload(byte[] envelope, byte[] payload) {
        JsonMapper json = JsonMapper.builder().build();
        ObjectNode root = (ObjectNode) json.readTree(envelope);
        root.put("payload", Base64.getEncoder().encodeToString(payload));
        return json.writeValueAsBytes(root);
    }
}
