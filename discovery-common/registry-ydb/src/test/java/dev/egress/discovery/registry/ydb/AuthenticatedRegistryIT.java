package dev.egress.discovery.registry.ydb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.discovery.registry.AnnouncedIp;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.AnnouncementCodec;
import dev.egress.discovery.registry.AnnouncementWriter;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.registry.Registration;
import dev.egress.discovery.registry.RejectionReason;
import dev.egress.discovery.registry.RoutingSnapshot;
import dev.egress.discovery.registry.testing.MutableClock;
import dev.egress.discovery.trust.AnnouncementSigner;
import dev.egress.discovery.trust.AnnouncementVerifier;
import dev.egress.discovery.trust.Identity;
import dev.egress.discovery.trust.ReloadingFile;
import dev.egress.discovery.trust.TrustBundle;
import dev.egress.discovery.trust.testing.TestPki;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tech.ydb.coordination.CoordinationClient;
import tech.ydb.coordination.CoordinationSession;
import tech.ydb.core.grpc.GrpcTransport;

/**
 * The registry is shared storage, not a trusted party: a real SDK session holding a slot with a forged
 * announcement (unsigned, or signed by another CA, or by a real Border speaking for another) is
 * rejected, counted by reason, and never replaces the verified announcement it imitates.
 */
class AuthenticatedRegistryIT {

    private static final Duration CONVERGE = Duration.ofSeconds(30);
    private static TestPki borderCa;
    private static TestPki rogueCa;
    private static ReloadingFile<Identity> borderA;
    private static ReloadingFile<Identity> borderB;
    private static ReloadingFile<Identity> rogueA;
    private static ReloadingFile<TrustBundle> trusted;

    @AutoClose
    private RegistryFixture fixture;

    @BeforeAll
    static void pki() {
        borderCa = TestPki.create("border CA");
        rogueCa = TestPki.create("rogue CA");
        borderA = identity(borderCa.border("border-a", "127.0.0.3"));
        borderB = identity(borderCa.border("border-b", "127.0.0.3"));
        rogueA = identity(rogueCa.border("border-a", "127.0.0.3"));
        trusted = ReloadingFile.bundle(borderCa.caPem(), "egress.trust.border-ca", Duration.ofHours(1));
    }

    private static ReloadingFile<Identity> identity(TestPki.Issued issued) {
        return ReloadingFile.identity(
                issued.certificate(),
                issued.privateKey(),
                "egress.trust.certificate",
                "egress.trust.private-key",
                Duration.ofHours(1));
    }

    private RegistryFixture.Watched verifyingWatcher() {
        return fixture.watcher(
                new AnnouncementVerifier(trusted, "egress.local", Clock.systemUTC(), Duration.ofSeconds(30)));
    }

    private static Announcement announcement(String border, String... ips) {
        List<AnnouncedIp> announced = Arrays.stream(ips)
                .map(ip -> new AnnouncedIp(EgressIp.of(ip), IpStatus.ACTIVE))
                .toList();
        return Announcement.initial(
                BorderId.of(border), URI.create("https://127.0.0.1:8181"), announced, Instant.now());
    }

    @Test
    void aBorderWhoseClockStepsBackIsStillRoutedOnItsNextAnnouncement() {
        fixture = new RegistryFixture(Duration.ofSeconds(2), Duration.ofMillis(100));
        RegistryFixture.Watched app = verifyingWatcher();
        MutableClock clock = new MutableClock(Instant.now());
        Registration a = fixture.border(new AnnouncementSigner(borderA), clock)
                .register(announcement("border-a", "127.0.0.3").withValidity(AnnouncementSigner.DEFAULT_VALIDITY));
        await().atMost(CONVERGE).until(() -> app.has("border-a"));
        Instant first = app.of("border-a").publishedAt();

        // An NTP correction or a restored VM: the Border's wall clock goes back an hour.
        clock.advance(Duration.ofHours(-1));
        a.update(a.current().withAllIps(IpStatus.DRAINING)).join();

        await().atMost(CONVERGE)
                .untilAsserted(() -> assertThat(app.of("border-a")).isEqualTo(a.current()));
        assertThat(app.of("border-a").publishedAt()).isAfterOrEqualTo(first);
        assertThat(app.table().latestRejections()).isEmpty();
    }

    @Test
    void signedAnnouncementIsRoutedAndForgeriesOfItAreRejectedByReason() {
        fixture = new RegistryFixture(Duration.ofSeconds(2), Duration.ofMillis(100));
        RegistryFixture.Watched app = verifyingWatcher();
        Registration a = fixture.border(new AnnouncementSigner(borderA))
                .register(announcement("border-a", "127.0.0.3").withValidity(AnnouncementSigner.DEFAULT_VALIDITY));
        await().atMost(CONVERGE).until(() -> app.has("border-a"));
        Announcement verified = app.of("border-a");

        try (GrpcTransport transport = GrpcTransport.forConnectionString(
                        fixture.settings().connectionString())
                .build()) {
            CoordinationSession writer = CoordinationClient.newClient(transport).createSession("egress");
            assertThat(writer.connect().join().isSuccess()).isTrue();
            // Three forgeries, each in its own session: the same id, a later publishedAt, the IP DISABLED.
            Announcement disabled = announcement("border-a", "127.0.0.3")
                    .withAllIps(IpStatus.DISABLED)
                    .republished(99, Instant.now().plusSeconds(5));
            CoordinationSession bare = session(transport);
            CoordinationSession otherCa = session(transport);
            CoordinationSession otherBorder = session(transport);
            acquire(bare, new AnnouncementCodec().encode(disabled));
            acquire(otherCa, new AnnouncementSigner(rogueA).write(disabled));
            acquire(otherBorder, new AnnouncementSigner(borderB).write(disabled));

            await().atMost(CONVERGE)
                    .untilAsserted(() -> assertThat(app.table().latestRejections())
                            .extracting(RoutingSnapshot.Rejection::cause)
                            .containsExactlyInAnyOrder(
                                    RejectionReason.UNSIGNED,
                                    RejectionReason.UNTRUSTED_CERTIFICATE,
                                    RejectionReason.IDENTITY_MISMATCH));
            assertThat(app.table().latestRejections())
                    .extracting(r -> r.claimedBorderId().value())
                    .containsOnly("border-a");
            // Still the verified announcement, ACTIVE; no duplicate resolution happened.
            assertThat(app.of("border-a")).isEqualTo(verified);
            assertThat(app.table().current().duplicateBorders()).isEmpty();
            for (String reason : List.of("unsigned", "untrusted-certificate", "identity-mismatch")) {
                await().atMost(CONVERGE)
                        .until(() -> app.meters()
                                        .get("egress.registry.announcements.rejected")
                                        .tag("reason", reason)
                                        .counter()
                                        .count()
                                == 1);
            }
            // The real Border keeps publishing and App follows it.
            a.update(a.current().withAllIps(IpStatus.DRAINING)).join();
            await().atMost(CONVERGE)
                    .untilAsserted(() -> assertThat(app.of("border-a")).isEqualTo(a.current()));
            bare.close();
            otherCa.close();
            otherBorder.close();
            writer.close();
        }
    }

    @Test
    void unsignedBorderIsNeverRouted() {
        fixture = new RegistryFixture(Duration.ofSeconds(2), Duration.ofMillis(100));
        RegistryFixture.Watched app = verifyingWatcher();
        fixture.border(AnnouncementWriter.unsignedForInsecureLocal()).register(announcement("border-a", "127.0.0.3"));

        await().atMost(CONVERGE).until(() -> !app.table().latestRejections().isEmpty());
        assertThat(app.table().latestRejections())
                .extracting(RoutingSnapshot.Rejection::cause)
                .containsExactly(RejectionReason.UNSIGNED);
        assertThat(app.table().current().announcements()).isEmpty();
    }

    private static CoordinationSession session(GrpcTransport transport) {
        CoordinationSession session = CoordinationClient.newClient(transport).createSession("egress");
        assertThat(session.connect().join().isSuccess()).isTrue();
        return session;
    }

    private static void acquire(CoordinationSession session, byte[] data) {
        assertThat(session.acquireSemaphore("borders-registry", 1, data, Duration.ofSeconds(5))
                        .join()
                        .isSuccess())
                .isTrue();
    }
}
