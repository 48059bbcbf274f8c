package dev.egress.discovery.registry;

import static dev.egress.discovery.registry.testing.Announcements.payloads;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.egress.discovery.registry.testing.Announcements;
import dev.egress.discovery.registry.testing.MutableClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class RoutingTableTest {

    private static final AnnouncementCodec CODEC = new AnnouncementCodec();
    private static final Announcement A = Announcements.of("border-a", "http://127.0.0.1:8181", "127.0.0.2");
    private static final Announcement B = Announcements.of("border-b", "http://127.0.0.1:8182", "127.0.0.3");

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-30T12:00:00Z"));
    private final RoutingTable table = new RoutingTable(clock);

    @Test
    void isEmptyAndNotReadyBeforeTheFirstRead() {
        assertThat(table.isReady()).isFalse();
        assertThat(table.whenReady()).isNotDone();
        assertThat(table.current()).isSameAs(RoutingSnapshot.empty());
        assertThat(table.age()).isGreaterThan(Duration.ofDays(365));
    }

    @Test
    void becomesReadyWithTheFirstSnapshot() {
        CompletableFuture<RoutingSnapshot> ready = table.whenReady();

        assertThat(table.offer(read(A))).isTrue();

        assertThat(table.isReady()).isTrue();
        assertThat(ready).isCompletedWithValue(table.current());
        assertThat(table.current().generation()).isEqualTo(1);
        assertThat(table.age()).isZero();
    }

    @Test
    void anExplicitlyEmptyRegistryIsAFirstRead() {
        assertThat(table.offer(read())).isTrue();

        assertThat(table.isReady()).isTrue();
        assertThat(table.current().isEmpty()).isTrue();
        assertThat(table.current().generation()).isEqualTo(1);
    }

    @Test
    void callersCannotCompleteTheReadyFutureThemselves() {
        table.whenReady().complete(RoutingSnapshot.empty());

        assertThat(table.isReady()).isFalse();
        assertThat(table.whenReady()).isNotDone();
    }

    @Test
    void swapsOnlyWhenTheContentChanged() {
        List<RoutingSnapshot> notified = new ArrayList<>();
        table.addListener(notified::add);

        assertThat(table.offer(read(A))).isTrue();
        assertThat(table.offer(read(A))).isFalse();
        assertThat(table.offer(read(A, B))).isTrue();
        assertThat(table.offer(read(B, A))).isFalse();

        assertThat(notified).extracting(RoutingSnapshot::generation).containsExactly(1L, 2L);
        assertThat(table.current().announcements()).hasSize(2);
    }

    @Test
    void anUnchangedReadStillConfirmsFreshness() {
        table.offer(read(A));
        clock.advance(Duration.ofSeconds(10));
        assertThat(table.age()).isEqualTo(Duration.ofSeconds(10));

        table.offer(read(A));

        assertThat(table.age()).isZero();
        assertThat(table.current().generation()).isEqualTo(1);
    }

    @Test
    void refusesTheNothingReadYetSnapshot() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> table.offer(RoutingSnapshot.empty()))
                .withMessageContaining("expected: a snapshot built from a registry read");
        assertThat(table.isReady()).isFalse();
    }

    @Test
    void keepsTheLastGoodSnapshotWhenEveryPayloadIsRejected() {
        table.offer(read(A));
        RoutingSnapshot good = table.current();
        clock.advance(Duration.ofSeconds(3));

        boolean swapped = table.offer(RoutingSnapshot.fromPayloads(
                List.of("garbage".getBytes(StandardCharsets.UTF_8), new byte[0]), CODEC, clock.instant()));

        assertThat(swapped).isFalse();
        assertThat(table.current()).isSameAs(good);
        // Not a confirmation: the snapshot keeps ageing towards max-staleness, as after a failed read.
        assertThat(table.age()).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void anAllRejectedFirstReadDoesNotMakeTheTableReady() {
        table.offer(
                RoutingSnapshot.fromPayloads(List.of("{}".getBytes(StandardCharsets.UTF_8)), CODEC, clock.instant()));

        assertThat(table.isReady()).isFalse();
    }

    @Test
    void aReadWithSomeRejectionsIsSwappedIn() {
        List<byte[]> input = new ArrayList<>(payloads(A));
        input.add("garbage".getBytes(StandardCharsets.UTF_8));

        assertThat(table.offer(RoutingSnapshot.fromPayloads(input, CODEC, clock.instant())))
                .isTrue();
        assertThat(table.current().rejections()).hasSize(1);
    }

    @Test
    void theRegistryEmptyingOutIsSwappedIn() {
        table.offer(read(A));

        assertThat(table.offer(read())).isTrue();

        assertThat(table.current().isEmpty()).isTrue();
        assertThat(table.current().generation()).isEqualTo(2);
    }

    @Test
    void listenersRunAfterTheSwapAndSeeTheNewSnapshotAsCurrent() {
        List<Boolean> sawItAsCurrent = new ArrayList<>();
        table.addListener(snapshot -> sawItAsCurrent.add(table.current() == snapshot));

        table.offer(read(A));
        table.offer(read(B));

        assertThat(sawItAsCurrent).containsExactly(true, true);
    }

    @Test
    void aFailingListenerNeitherUndoesTheSwapNorStopsOtherListeners() {
        List<Long> seen = new ArrayList<>();
        table.addListener(snapshot -> {
            throw new IllegalStateException("listener bug");
        });
        table.addListener(snapshot -> seen.add(snapshot.generation()));

        assertThat(table.offer(read(A))).isTrue();

        assertThat(seen).containsExactly(1L);
        assertThat(table.current().announcements()).containsKey(A.borderId());
    }

    @Test
    void keepsTheLatestReadsRejectionsEvenWhenTheReadCausesNoSwap() {
        table.offer(read(A));
        List<byte[]> withGarbage = new ArrayList<>(payloads(A));
        withGarbage.add("garbage".getBytes(StandardCharsets.UTF_8));

        assertThat(table.offer(RoutingSnapshot.fromPayloads(withGarbage, CODEC, clock.instant())))
                .isFalse();
        assertThat(table.latestRejections())
                .singleElement()
                .satisfies(r -> assertThat(r.index()).isEqualTo(1));

        table.offer(read(A));
        assertThat(table.latestRejections()).isEmpty();
    }

    @Test
    void warnsOncePerEpisodeOfUnusableReads() {
        RoutingSnapshot unusable =
                RoutingSnapshot.fromPayloads(List.of("{}".getBytes(StandardCharsets.UTF_8)), CODEC, clock.instant());
        List<String> warnings;
        try (var log = LogCapture.of(RoutingTable.class)) {
            table.offer(unusable);
            table.offer(unusable);
            table.offer(read(A));
            table.offer(unusable);
            warnings = log.messages(Level.WARN);
        }

        assertThat(warnings)
                .hasSize(2)
                .allMatch(m -> m.startsWith("Registry read unusable: all 1 payloads were rejected"));
    }

    @Test
    void namesAtMostTwentyLiveBordersWhenItLogsASwap() {
        List<String> infos;
        try (var log = LogCapture.of(RoutingTable.class)) {
            table.offer(read(borders(20)));
            table.offer(read(borders(21)));
            infos = log.messages(Level.INFO);
        }

        String twenty = IntStream.range(0, 20)
                .mapToObj(i -> "border-%02d".formatted(i))
                .collect(Collectors.joining(", ", "[", "]"));
        assertThat(infos)
                .containsExactly(
                        "Routing snapshot 1 applied; live borders: " + twenty,
                        "Routing snapshot 2 applied; live borders: 21, first 20: " + twenty);
    }

    @Test
    void whenMatchesCompletesAtOnceIfTheCurrentSnapshotAlreadyMatches() {
        table.offer(read(A, B));

        CompletableFuture<RoutingSnapshot> answer =
                table.whenMatches(s -> s.announcements().containsKey(B.borderId()));

        assertThat(answer).isCompletedWithValue(table.current());
        assertThat(table.waiting()).isZero();
    }

    @Test
    void whenMatchesCompletesOnTheSwapThatShowsTheConditionNotBefore() {
        table.offer(read(A));
        CompletableFuture<RoutingSnapshot> answer =
                table.whenMatches(s -> s.announcements().containsKey(B.borderId()));
        assertThat(answer).isNotDone();

        table.offer(read(A));
        assertThat(answer).isNotDone();
        table.offer(read(B));

        // Completed by the offer itself, not by a later poll.
        assertThat(answer).isCompletedWithValue(table.current());
        assertThat(answer.join().generation()).isEqualTo(2);
        assertThat(table.waiting()).isZero();
    }

    @Test
    void whenMatchesIsAnsweredBeforeTheListenersRun() {
        CompletableFuture<RoutingSnapshot> answer = table.whenMatches(s -> s.generation() == 1);
        List<Boolean> answeredWhenListened = new ArrayList<>();
        table.addListener(s -> answeredWhenListened.add(answer.isDone()));

        table.offer(read(A));

        assertThat(answeredWhenListened).containsExactly(true);
    }

    @Test
    void whenMatchesBeforeTheFirstReadSeesTheFirstSnapshot() {
        CompletableFuture<RoutingSnapshot> answer = table.whenMatches(s -> !s.isEmpty());
        assertThat(answer).isNotDone();

        table.offer(read(A));

        assertThat(answer).isCompletedWithValue(table.current());
    }

    @Test
    void aThrowingConditionFailsOnlyItsOwnWaitAndTheSwapStillHappens() {
        CompletableFuture<RoutingSnapshot> failing = table.whenMatches(s -> {
            if (!s.isEmpty()) {
                throw new IllegalStateException("condition broke");
            }
            return false;
        });
        CompletableFuture<RoutingSnapshot> other = table.whenMatches(s -> !s.isEmpty());

        assertThat(table.offer(read(A))).isTrue();

        assertThat(failing).isCompletedExceptionally();
        assertThat(other).isCompletedWithValue(table.current());
        assertThat(table.waiting()).isZero();
    }

    @Test
    void aCancelledWaitLeavesTheTableAndIsNotAnsweredLater() {
        CompletableFuture<RoutingSnapshot> answer = table.whenMatches(s -> !s.isEmpty());
        assertThat(table.waiting()).isEqualTo(1);

        answer.cancel(false);

        assertThat(table.waiting()).isZero();
        table.offer(read(A));
        assertThat(answer).isCancelled();
    }

    private static Announcement[] borders(int count) {
        return IntStream.range(0, count)
                .mapToObj(i -> Announcements.of("border-%02d".formatted(i), "http://127.0.0.1:8181", "127.0.1." + i))
                .toArray(Announcement[]::new);
    }

    /** Records one logger's events for the duration of a test. */
    private record LogCapture(Logger logger, ListAppender<ILoggingEvent> appender) implements AutoCloseable {

        static LogCapture of(Class<?> type) {
            Logger logger = (Logger) LoggerFactory.getLogger(type);
            ListAppender<ILoggingEvent> appender = new ListAppender<>();
            appender.start();
            logger.addAppender(appender);
            return new LogCapture(logger, appender);
        }

        List<String> messages(Level level) {
            return appender.list.stream()
                    .filter(e -> e.getLevel() == level)
                    .map(ILoggingEvent::getFormattedMessage)
                    .toList();
        }

        @Override
        public void close() {
            logger.detachAppender(appender);
        }
    }

    private RoutingSnapshot read(Announcement... announcements) {
        return RoutingSnapshot.fromPayloads(payloads(announcements), CODEC, clock.instant());
    }
}
