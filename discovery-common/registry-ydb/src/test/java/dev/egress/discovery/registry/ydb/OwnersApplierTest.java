package dev.egress.discovery.registry.ydb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.discovery.registry.AnnouncedIp;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.AnnouncementCodec;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.registry.RoutingGauges;
import dev.egress.discovery.registry.RoutingTable;
import dev.egress.discovery.registry.testing.MutableClock;
import dev.egress.discovery.trust.AnnouncementVerifier;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class OwnersApplierTest {

    private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

    private final AnnouncementCodec codec = new AnnouncementCodec();
    private final MutableClock clock = new MutableClock(T0);
    private final RoutingTable table = new RoutingTable(clock);
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final OwnersApplier applier = new OwnersApplier(
            AnnouncementVerifier.unverifiedForInsecureLocal(), table, clock, new WatcherMetrics(meters));

    {
        RoutingGauges.bind(table, meters); // the table's gauges show what the applier swapped in
    }

    @Test
    void offersEveryReadAndSwapsOnlyOnChange() {
        OwnersApplier.Owner a = owner(1, announcement("border-a", "203.0.113.10", 0, T0));
        assertThat(applier.apply(List.of(a))).isTrue();
        assertThat(applier.apply(List.of(a))).isFalse();
        assertThat(table.current().announcements()).containsOnlyKeys(BorderId.of("border-a"));
        assertThat(meters.get("egress.routing.borders.live").gauge().value()).isEqualTo(1);
        assertThat(meters.get("egress.routing.ips.live").gauge().value()).isEqualTo(1);
    }

    @Test
    void malformedPayloadIsCountedOncePerOwnerAndNeverPoisonsTheSnapshot() {
        OwnersApplier.Owner good = owner(1, announcement("border-a", "203.0.113.10", 0, T0));
        OwnersApplier.Owner bad = new OwnersApplier.Owner(2, "{\"version\":1".getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < 5; i++) {
            applier.apply(List.of(good, bad));
        }
        assertThat(meters.get("egress.registry.announcements.malformed")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(table.current().announcements()).containsOnlyKeys(BorderId.of("border-a"));

        OwnersApplier.Owner anotherBad = new OwnersApplier.Owner(3, new byte[] {1, 2, 3});
        applier.apply(List.of(good, bad, anotherBad));
        assertThat(meters.get("egress.registry.announcements.malformed")
                        .counter()
                        .count())
                .isEqualTo(2);
    }

    @Test
    void logsARejectedAnnouncementOnOneLineWhateverItContains() {
        ch.qos.logback.classic.Logger logger =
                (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(OwnersApplier.class);
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> appender =
                new ch.qos.logback.core.read.ListAppender<>();
        appender.start();
        logger.addAppender(appender);
        try {
            String forged =
                    "{\"version\":1,\"borderId\":\"x\\r\\n2026-11-30 INFO forged line\",\"endpoint\":\"http://10.0.0.1:8181\","
                            + "\"ips\":[{\"ip\":\"203.0.113.10\",\"status\":\"ACTIVE\"}],\"publishedAt\":\"2026-11-30T10:00:00Z\",\"generation\":1}";
            applier.apply(List.of(new OwnersApplier.Owner(7, forged.getBytes(StandardCharsets.UTF_8))));
            assertThat(appender.list).hasSize(1);
            String line = appender.list.get(0).getFormattedMessage();
            assertThat(line)
                    .contains("borderId")
                    .contains("x\\r\\n2026-11-30 INFO forged line")
                    .doesNotContain("\r")
                    .doesNotContain("\n");
        } finally {
            logger.detachAppender(appender);
        }
    }

    @Test
    void recordsLagOncePerNewGenerationAfterTheFirstRead() {
        applier.apply(List.of(owner(1, announcement("border-a", "203.0.113.10", 0, T0.minusSeconds(3600)))));
        assertThat(lagCount()).as("first read is a baseline, not lag").isZero();

        clock.set(T0.plusMillis(40));
        OwnersApplier.Owner updated = owner(1, announcement("border-a", "203.0.113.10", 1, T0));
        applier.apply(List.of(updated));
        applier.apply(List.of(updated));
        assertThat(lagCount()).isEqualTo(1);
        assertThat(meters.get("egress.registry.propagation.lag").timer().max(TimeUnit.MILLISECONDS))
                .isEqualTo(40);
    }

    @Test
    void conflictsAndGenerationAreExported() {
        applier.apply(List.of(
                owner(1, announcement("border-a", "203.0.113.10", 0, T0)),
                owner(2, announcement("border-b", "203.0.113.10", 0, T0))));
        assertThat(meters.get("egress.routing.ips.conflicts").gauge().value()).isEqualTo(1);
        assertThat(meters.get("egress.routing.snapshot.generation").gauge().value())
                .isEqualTo(1);
        clock.set(T0.plusSeconds(2));
        assertThat(meters.get("egress.routing.snapshot.age").gauge().value()).isEqualTo(2.0);
    }

    private long lagCount() {
        return meters.get("egress.registry.propagation.lag").timer().count();
    }

    private OwnersApplier.Owner owner(long session, Announcement announcement) {
        return new OwnersApplier.Owner(session, codec.encode(announcement));
    }

    static Announcement announcement(String border, String ip, long generation, Instant publishedAt) {
        return new Announcement(
                Announcement.CURRENT_VERSION,
                BorderId.of(border),
                URI.create("http://127.0.0.1:8181"),
                List.of(new AnnouncedIp(EgressIp.of(ip), IpStatus.ACTIVE)),
                publishedAt,
                generation);
    }
}
