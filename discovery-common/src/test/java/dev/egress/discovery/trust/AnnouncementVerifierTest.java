package dev.egress.discovery.trust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.egress.discovery.Announcement;
import dev.egress.discovery.AnnouncementCodec;
import dev.egress.discovery.EgressIp;
import dev.egress.discovery.IpStatus;
import dev.egress.discovery.RejectedAnnouncementException;
import dev.egress.discovery.RejectionReason;
import dev.egress.discovery.testing.Announcements;
import dev.egress.discovery.testing.MutableClock;
import dev.egress.discovery.testing.TestPki;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

class AnnouncementVerifierTest {

    private static final Duration SKEW = Duration.ofSeconds(30);
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
        borderA = load(borderCa.border("border-a"));
        borderB = load(borderCa.border("border-b"));
        rogue = load(otherCa.border("border-a"));
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
                .republished(0, now);
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

        assertThat(AnnouncementVerifier.unverified().read(signed)).isEqualTo(borderAAnnouncement());
        assertThat(AnnouncementVerifier.unverified().read(bare)).isEqualTo(borderAAnnouncement());
    }

    @Test
    void signedEnvelopeCarriesTheExactPayloadBytes() throws Exception {
        byte[] data = new AnnouncementSigner(() -> borderA).write(borderAAnnouncement());
        ObjectNode envelope = (ObjectNode) JsonMapper.builder().build().readTree(data);

        assertThat(Base64.getDecoder().decode(envelope.get("payload").asString()))
                .isEqualTo(new AnnouncementCodec().encode(borderAAnnouncement()));
        assertThat(envelope.get("chain")).hasSize(2);
    }

    private void assertRejected(byte[] data, RejectionReason reason) {
        assertThatThrownBy(() -> verifier().read(data))
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
