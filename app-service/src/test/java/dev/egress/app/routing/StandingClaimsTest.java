package dev.egress.app.routing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.discovery.registry.AnnouncedIp;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.registry.RoutingSnapshot;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The merge of the standing claims with a read of the claims table ({@link StandingClaims#stored}) and the rows a
 * live Border's announcement takes off ({@link StandingClaims#takenOff}).
 */
class StandingClaimsTest {

    private static final EgressIp IP = EgressIp.of("127.0.0.3");
    private static final EgressIp OTHER = EgressIp.of("127.0.0.4");
    private static final BorderId A = BorderId.of("border-a");
    private static final BorderId B = BorderId.of("border-b");
    private static final Claim A_CLAIMS = new Claim(IP, A);
    private static final Claim B_CLAIMS = new Claim(IP, B);

    private static Announcement border(String id, String... ips) {
        List<AnnouncedIp> announced = new ArrayList<>();
        for (String ip : ips) {
            announced.add(new AnnouncedIp(EgressIp.of(ip), IpStatus.ACTIVE));
        }
        return Announcement.initial(BorderId.of(id), URI.create("http://127.0.0.1:1"), announced, Instant.now());
    }

    private static Announcement releasing(String id, String ip) {
        return Announcement.initial(
                BorderId.of(id),
                URI.create("http://127.0.0.1:1"),
                List.of(new AnnouncedIp(EgressIp.of(ip), IpStatus.ACTIVE).withheld(AnnouncedIp.RELEASED)),
                Instant.now());
    }

    private static RoutingSnapshot snapshot(Announcement... live) {
        return RoutingSnapshot.fromAnnouncements(List.of(live), Instant.now());
    }

    @Test
    void anAppThatNeverSawTheOwnerLearnsItsClaimFromTheTableAndSeesTheConflict() {
        RoutingSnapshot onlyB = snapshot(border("border-b", "127.0.0.3"));
        StandingClaims seen = StandingClaims.none().after(onlyB);
        assertThat(seen.conflicts()).isEmpty();

        StandingClaims merged = seen.stored(Set.of(A_CLAIMS), Set.of(), onlyB);

        assertThat(merged.conflicts()).isEqualTo(Map.of(IP, List.of(A, B)));
        assertThat(merged.all()).containsExactlyInAnyOrder(A_CLAIMS, B_CLAIMS);
    }

    @Test
    void anAbsentOwnersClaimTheTableLostEnds() {
        // Another App's move deleted the row; this App still remembers the owner from before it left.
        StandingClaims remembered = StandingClaims.none()
                .after(snapshot(border("border-a", "127.0.0.3")))
                .after(snapshot(border("border-b", "127.0.0.3")));
        assertThat(remembered.conflicts()).containsKey(IP);
        RoutingSnapshot onlyB = snapshot(border("border-b", "127.0.0.3"));

        StandingClaims merged = remembered.stored(Set.of(B_CLAIMS), Set.of(A_CLAIMS, B_CLAIMS), onlyB);

        assertThat(merged.conflicts()).isEmpty();
        assertThat(merged.all()).containsExactly(B_CLAIMS);
    }

    @Test
    void anAbsentClaimTheTableNeverKnewStaysUntilItIsStored() {
        StandingClaims remembered = StandingClaims.none()
                .after(snapshot(border("border-a", "127.0.0.3")))
                .after(snapshot());

        StandingClaims merged = remembered.stored(Set.of(), Set.of(), snapshot());

        assertThat(merged).isSameAs(remembered);
        assertThat(merged.all()).containsExactly(A_CLAIMS);
    }

    @Test
    void liveBordersClaimsComeFromTheSnapshotWhateverTheTableSays() {
        // border-a is live without the IP (out of its configuration): a row of it is no claim; border-b is live
        // and claims: a table without its row does not end it.
        RoutingSnapshot live = snapshot(border("border-a", "127.0.0.4"), border("border-b", "127.0.0.3"));
        StandingClaims seen = StandingClaims.none().after(live);

        StandingClaims merged = seen.stored(Set.of(A_CLAIMS), Set.of(A_CLAIMS, B_CLAIMS), live);

        assertThat(merged).isSameAs(seen);
        assertThat(merged.all()).containsExactlyInAnyOrder(B_CLAIMS, new Claim(OTHER, A));
        assertThat(merged.conflicts()).isEmpty();
    }

    @Test
    void aMoveLeavesOnlyTheNewOwnersClaimOfTheIp() {
        StandingClaims both = StandingClaims.none()
                .after(snapshot(border("border-a", "127.0.0.3", "127.0.0.4")))
                .after(snapshot(border("border-b", "127.0.0.3")));

        StandingClaims moved = both.moved(IP, B);

        assertThat(moved.all()).containsExactlyInAnyOrder(B_CLAIMS, new Claim(OTHER, A));
        assertThat(moved.conflicts()).isEmpty();
    }

    @Test
    void takesOffOnlyTheClaimsOfLiveBordersThatNoLongerClaimTheIp() {
        RoutingSnapshot live = snapshot(releasing("border-a", "127.0.0.3"), border("border-b", "127.0.0.4"));
        Claim absent = new Claim(IP, BorderId.of("border-c"));
        Claim stillClaimed = new Claim(OTHER, B);
        Claim outOfConfiguration = new Claim(IP, B);

        assertThat(StandingClaims.takenOff(List.of(A_CLAIMS, absent, stillClaimed, outOfConfiguration), live))
                .containsExactly(A_CLAIMS, outOfConfiguration);
    }

    @Test
    void aClaimReadsAsIpAtBorder() {
        assertThat(A_CLAIMS).hasToString("127.0.0.3@border-a");
    }
}
