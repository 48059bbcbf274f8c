package dev.egress.discovery.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.egress.discovery.registry.testing.Announcements;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.assertj.core.api.ThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AnnouncementTest {

    private static final BorderId BORDER = BorderId.of("border-a");
    private static final URI ENDPOINT = URI.create("http://127.0.0.1:8181");
    private static final Instant NOW = Announcements.PUBLISHED_AT;
    private static final List<AnnouncedIp> IPS = List.of(active("127.0.0.2"));

    @Test
    void initialAnnouncementIsGenerationZero() {
        Announcement a = Announcement.initial(BORDER, ENDPOINT, IPS, NOW);

        assertThat(a.version()).isEqualTo(1);
        assertThat(a.generation()).isZero();
        assertThat(a.publishedAt()).isEqualTo(NOW);
    }

    @Test
    void rejectsOtherVersions() {
        assertInvalid("version", () -> new Announcement(2, BORDER, ENDPOINT, IPS, NOW, 0));
    }

    @Test
    void rejectsMissingParts() {
        assertInvalid("borderId", () -> new Announcement(1, null, ENDPOINT, IPS, NOW, 0));
        assertInvalid("endpoint", () -> new Announcement(1, BORDER, null, IPS, NOW, 0));
        assertInvalid("ips", () -> new Announcement(1, BORDER, ENDPOINT, null, NOW, 0));
        assertInvalid("publishedAt", () -> new Announcement(1, BORDER, ENDPOINT, IPS, null, 0));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "ftp://127.0.0.1:8181",
                "mailto:ops@example.com",
                "/relative",
                "http:opaque",
                "http://user@127.0.0.1:8181",
                "http://under_score:8181",
                "http://127.0.0.1:0",
                "http://127.0.0.1:65536",
                "http://127.0.0.1:8181/?a=b",
                "http://127.0.0.1:8181#top"
            })
    void rejectsEndpointsThatAreNotAbsoluteHttpUrls(String endpoint) {
        assertInvalid("endpoint", () -> Announcement.initial(BORDER, URI.create(endpoint), IPS, NOW));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "http://10.0.3.17:8181",
                "https://border-a.internal",
                "HTTP://[::1]:8181/base",
                "http://127.0.0.1:1",
                "http://127.0.0.1:65535"
            })
    void acceptsAbsoluteHttpUrls(String endpoint) {
        assertThat(Announcement.initial(BORDER, URI.create(endpoint), IPS, NOW).endpoint())
                .hasToString(endpoint);
    }

    @Test
    void requiresOneToTwoHundredFiftySixIps() {
        List<AnnouncedIp> max = IntStream.range(0, 256)
                .mapToObj(i -> active("10.0." + (i / 256) + "." + (i % 256)))
                .toList();
        List<AnnouncedIp> tooMany = new ArrayList<>(max);
        tooMany.add(active("10.1.0.0"));

        assertThat(Announcement.initial(BORDER, ENDPOINT, max, NOW).ips()).hasSize(256);
        assertInvalid("ips", () -> Announcement.initial(BORDER, ENDPOINT, List.of(), NOW));
        assertInvalid("ips", () -> Announcement.initial(BORDER, ENDPOINT, tooMany, NOW));
    }

    @Test
    void rejectsTheSameIpTwiceEvenInAnotherSpelling() {
        assertThatThrownBy(() -> Announcement.initial(
                        BORDER,
                        ENDPOINT,
                        List.of(
                                new AnnouncedIp(EgressIp.of("2001:db8::1"), IpStatus.ACTIVE),
                                new AnnouncedIp(EgressIp.of("2001:DB8:0::1"), IpStatus.DRAINING)),
                        NOW))
                .isInstanceOf(InvalidAnnouncementException.class)
                .hasMessageContaining("duplicate ip 2001:db8::1");
    }

    @Test
    void rejectsANullIpEntryWithATypedError() {
        assertInvalid(
                "ips", () -> Announcement.initial(BORDER, ENDPOINT, Arrays.asList(active("127.0.0.2"), null), NOW));
    }

    @Test
    void rejectsNegativeGenerations() {
        assertInvalid("generation", () -> new Announcement(1, BORDER, ENDPOINT, IPS, NOW, -1));
    }

    @Test
    void copiesTheIpListSoLaterChangesDoNotLeakIn() {
        List<AnnouncedIp> ips = new ArrayList<>(IPS);
        Announcement a = Announcement.initial(BORDER, ENDPOINT, ips, NOW);
        ips.add(active("127.0.0.3"));

        assertThat(a.ips()).hasSize(1);
    }

    @Test
    void changesOneIpStatusAndKeepsTheRest() {
        Announcement a = Announcements.of("border-a", "http://127.0.0.1:8181", "127.0.0.2", "127.0.0.3");

        Announcement changed = a.withIpStatus(EgressIp.of("127.0.0.3"), IpStatus.DRAINING);

        assertThat(changed.statusOf(EgressIp.of("127.0.0.2"))).contains(IpStatus.ACTIVE);
        assertThat(changed.statusOf(EgressIp.of("127.0.0.3"))).contains(IpStatus.DRAINING);
        assertThat(changed.generation()).isEqualTo(a.generation());
        assertThat(changed.statusOf(EgressIp.of("127.0.0.9"))).isEmpty();
    }

    @Test
    void refusesToChangeAnIpItDoesNotHost() {
        Announcement a = Announcements.of("border-a", "http://127.0.0.1:8181", "127.0.0.2");

        assertThatIllegalArgumentException()
                .isThrownBy(() -> a.withIpStatus(EgressIp.of("127.0.0.9"), IpStatus.DISABLED))
                .withMessageContaining("127.0.0.9");
    }

    @Test
    void drainsEveryIpAtOnce() {
        Announcement a = Announcements.of("border-a", "http://127.0.0.1:8181", "127.0.0.2", "127.0.0.3");

        assertThat(a.withAllIps(IpStatus.DRAINING).ips())
                .extracting(AnnouncedIp::status)
                .containsOnly(IpStatus.DRAINING);
    }

    @Test
    void republishStampsTheNextGenerationAndTime() {
        Announcement a = Announcements.of("border-a", "http://127.0.0.1:8181", "127.0.0.2");
        Instant later = NOW.plusSeconds(5);

        Announcement next = a.republished(7, later);

        assertThat(next.generation()).isEqualTo(8);
        assertThat(next.publishedAt()).isEqualTo(later);
        assertThat(next.sameRoutingAs(a)).isTrue();
        assertThat(next).isNotEqualTo(a);
        assertThat(next.withAllIps(IpStatus.DISABLED).sameRoutingAs(a)).isFalse();
    }

    @Test
    void everyWitherKeepsTheValidityWindowAndEachPublishCountsItFromItsOwnTime() {
        Announcement a = Announcements.of("border-a", "http://127.0.0.1:8181", "127.0.0.2")
                .withValidity(Duration.ofMinutes(5));
        Instant later = NOW.plusSeconds(60);

        Announcement next = a.withIpStatus(EgressIp.of("127.0.0.2"), IpStatus.DRAINING)
                .withAllIps(IpStatus.DISABLED)
                .republished(3, later);

        assertThat(next.validFor()).isEqualTo(Duration.ofMinutes(5));
        assertThat(next.validUntil()).contains(later.plusSeconds(300));
        assertThat(a.validUntil()).contains(a.publishedAt().plusSeconds(300));
        assertThat(a.withValidity(null).validUntil()).isEmpty();
        assertThat(a.sameRoutingAs(a.withValidity(Duration.ofMinutes(1)))).isTrue();
    }

    @Test
    void acceptsValidityWindowsFromOneSecondToOneDay() {
        Announcement a = Announcements.of("border-a", "http://127.0.0.1:8181", "127.0.0.2");

        assertThat(a.withValidity(Duration.ofSeconds(1)).validFor()).isEqualTo(Duration.ofSeconds(1));
        assertThat(a.withValidity(Announcement.MAX_VALIDITY).validFor()).isEqualTo(Duration.ofDays(1));
        assertInvalid("validFor", () -> a.withValidity(Duration.ofMillis(999)));
        assertInvalid("validFor", () -> a.withValidity(Duration.ofDays(1).plusNanos(1)));
        assertInvalid("validFor", () -> a.withValidity(Duration.ofSeconds(-5)));
        assertInvalid("validFor", () -> Announcement.requireValidWindow(Duration.ZERO));
    }

    private static AnnouncedIp active(String ip) {
        return new AnnouncedIp(EgressIp.of(ip), IpStatus.ACTIVE);
    }

    private static void assertInvalid(String field, ThrowableAssert.ThrowingCallable call) {
        assertThatThrownBy(call)
                .isInstanceOfSatisfying(
                        InvalidAnnouncementException.class,
                        e -> assertThat(e.field()).isEqualTo(field));
    }
}
