package dev.egress.discovery.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WatchedFileTest {

    @TempDir
    Path dir;

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final AtomicInteger parses = new AtomicInteger();

    /** Parses a positive number; anything else is refused. */
    private Integer number(byte[] content) {
        parses.incrementAndGet();
        int value = Integer.parseInt(new String(content, StandardCharsets.UTF_8).strip());
        if (value <= 0) {
            throw new IllegalArgumentException("number: %d (expected: > 0)".formatted(value));
        }
        return value;
    }

    private WatchedFile.Builder<Integer> builder(Path file) {
        return WatchedFile.of("test.file", file, this::number).meters(meters);
    }

    private double reloads(String outcome) {
        return meters.get("egress.file.reloads")
                .tag("file", "test.file")
                .tag("outcome", outcome)
                .counter()
                .count();
    }

    /** Writes and moves the modification time out of the settle window, so only the cheap check decides. */
    private static Path settled(Path file, String content, long modifiedMillis) throws Exception {
        Files.writeString(file, content);
        Files.setLastModifiedTime(file, FileTime.fromMillis(modifiedMillis));
        return file;
    }

    private static long longAgo() {
        return System.currentTimeMillis() - Duration.ofHours(1).toMillis();
    }

    @Test
    void readsTheFirstContentAndRefusesToStartWithoutAReadableOrValidFile() throws Exception {
        Path file = Files.writeString(dir.resolve("n"), "7\n");
        assertThat(builder(file).checkWhenRead(Duration.ofHours(1)).get()).isEqualTo(7);

        assertThatThrownBy(() -> builder(dir.resolve("missing")).checkWhenRead(Duration.ZERO))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("cannot read " + dir.resolve("missing") + " (NoSuchFileException)");
        Path invalid = Files.writeString(dir.resolve("invalid"), "-1");
        assertThatThrownBy(() -> builder(invalid).checkWhenRead(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("number: -1 (expected: > 0)");
    }

    @Test
    void namesItselfByTheFileNameNeverByItsContent() throws Exception {
        // Token files are watched files: a log line or a record that prints one must not print a token.
        Path file = Files.writeString(dir.resolve("tokens"), "4242\n");
        WatchedFile<Integer> watched = builder(file).checkWhenRead(Duration.ofHours(1));

        assertThat(watched.toString()).isEqualTo("WatchedFile[test.file]").doesNotContain("4242");
    }

    @Test
    void appliesChangedContentThenTellsReloadListenersBeforeChangeListeners() throws Exception {
        Path file = Files.writeString(dir.resolve("n"), "1");
        WatchedFile<Integer> watched = builder(file).checkWhenRead(Duration.ofHours(1));
        List<String> heard = new CopyOnWriteArrayList<>();
        watched.onReload(reload -> heard.add(reload.outcome() + " while " + watched.get()));
        watched.onChange(value -> heard.add("changed to " + value));

        Files.writeString(file, "22");

        assertThat(watched.refresh()).isTrue();
        assertThat(watched.get()).isEqualTo(22);
        assertThat(heard).containsExactly("APPLIED while 22", "changed to 22");
        assertThat(reloads("applied")).isEqualTo(1);
    }

    @Test
    void keepsTheLastGoodValueWhenNewContentDoesNotParseAndReportsThatOnce() throws Exception {
        Path file = Files.writeString(dir.resolve("n"), "5");
        WatchedFile<Integer> watched = builder(file).checkWhenRead(Duration.ofHours(1));
        List<Reload> reloads = new CopyOnWriteArrayList<>();
        watched.onReload(reloads::add);

        Files.writeString(file, "0");
        assertThat(watched.refresh()).isFalse();
        Files.setLastModifiedTime(file, FileTime.fromMillis(longAgo())); // touched, same bad content
        assertThat(watched.refresh()).isFalse();

        assertThat(watched.get()).isEqualTo(5);
        assertThat(reloads).singleElement().satisfies(reload -> {
            assertThat(reload.outcome()).isEqualTo(Reload.Outcome.REJECTED);
            assertThat(reload.error()).isEqualTo("number: 0 (expected: > 0)");
        });
        assertThat(reloads("rejected")).isEqualTo(1);

        Files.writeString(file, "5"); // the last good content again clears the bad state
        watched.refresh();
        assertThat(reloads)
                .extracting(Reload::outcome)
                .containsExactly(Reload.Outcome.REJECTED, Reload.Outcome.APPLIED);
    }

    @Test
    void keepsTheLastGoodValueWhileTheFileIsGoneAndTakesTheSameContentBackAsNew() throws Exception {
        Path file = Files.writeString(dir.resolve("n"), "5");
        WatchedFile<Integer> watched = builder(file).checkWhenRead(Duration.ofHours(1));

        Files.delete(file);
        watched.refresh();
        watched.refresh();
        assertThat(watched.get()).isEqualTo(5);
        assertThat(reloads("unreadable")).as("once per bad state").isEqualTo(1);

        settled(file, "5", longAgo());
        watched.refresh();
        assertThat(reloads("applied"))
                .as("readable again, though the content did not change")
                .isEqualTo(1);
    }

    @Test
    void failsClosedWithTheUnreadableValueWhenTheOwnerGivesOne() throws Exception {
        Path file = Files.writeString(dir.resolve("n"), "5");
        WatchedFile<Integer> watched = builder(file)
                .whenUnreadable(e -> e.getClass().getSimpleName().length())
                .checkWhenRead(Duration.ofHours(1));

        Files.delete(file);

        assertThat(watched.refresh()).isTrue();
        assertThat(watched.get()).isEqualTo("NoSuchFileException".length());
        Files.writeString(file, "6");
        assertThat(watched.refresh()).isTrue();
        assertThat(watched.get()).isEqualTo(6);
    }

    @Test
    void anUnchangedSettledFileIsOnlyStatted() throws Exception {
        Path file = settled(dir.resolve("n"), "5", longAgo());
        WatchedFile<Integer> watched = builder(file).checkWhenRead(Duration.ofHours(1));

        for (int i = 0; i < 3; i++) {
            assertThat(watched.refresh()).isFalse();
        }

        assertThat(parses).hasValue(1);
        assertThat(meters.find("egress.file.reloads").counters()).isEmpty();
    }

    @Test
    void aRewriteThatKeepsSizeAndModificationTimeIsNoticedWhileTheFileIsYoung() throws Exception {
        long now = System.currentTimeMillis();
        Path file = settled(dir.resolve("n"), "5", now);
        WatchedFile<Integer> watched = builder(file).checkWhenRead(Duration.ofHours(1));

        settled(file, "6", now); // the same size and time, as on a file system with a coarse clock

        assertThat(watched.refresh()).isTrue();
        assertThat(watched.get()).isEqualTo(6);
    }

    @Test
    void newMetadataWithTheSameContentIsNotParsedAgain() throws Exception {
        Path file = settled(dir.resolve("n"), "5", longAgo());
        WatchedFile<Integer> watched = builder(file).checkWhenRead(Duration.ofHours(1));

        settled(file, "5", longAgo() + 1000);

        assertThat(watched.refresh()).isFalse();
        assertThat(parses).hasValue(1);
    }

    @Test
    void refusesAnOversizeFileUnreadKeepingTheLastGoodValue() throws Exception {
        Path file = Files.writeString(dir.resolve("n"), "5");
        WatchedFile<Integer> watched = builder(file).maxBytes(3).checkWhenRead(Duration.ofHours(1));
        List<Reload> reloads = new CopyOnWriteArrayList<>();
        watched.onReload(reloads::add);

        Files.writeString(file, "1234");
        watched.refresh();

        assertThat(watched.get()).isEqualTo(5);
        assertThat(parses).hasValue(1);
        assertThat(reloads).singleElement().extracting(Reload::error).isEqualTo("file is 4 bytes (expected: <= 3)");
        assertThatThrownBy(() -> builder(file).maxBytes(3).checkWhenRead(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("file is 4 bytes (expected: <= 3)");
    }

    @Test
    void aValueCheckedWhenReadIsCheckedAtMostOncePerInterval() throws Exception {
        Path file = Files.writeString(dir.resolve("n"), "5");
        AtomicLong nanos = new AtomicLong();
        WatchedFile<Integer> watched =
                builder(file).clocks(Clock.systemUTC(), nanos::get).checkWhenRead(Duration.ofSeconds(1));

        Files.writeString(file, "6");
        nanos.addAndGet(Duration.ofSeconds(1).toNanos() - 1);
        assertThat(watched.get()).isEqualTo(5);
        nanos.addAndGet(1);
        assertThat(watched.get()).isEqualTo(6);
    }

    @Test
    void aValueCheckedWhenReadWithAZeroIntervalIsCheckedOnEveryRead() throws Exception {
        Path file = Files.writeString(dir.resolve("n"), "5");
        AtomicLong nanos = new AtomicLong();
        WatchedFile<Integer> watched =
                builder(file).clocks(Clock.systemUTC(), nanos::get).checkWhenRead(Duration.ZERO);

        Files.writeString(file, "6");

        assertThat(watched.get()).as("no time passed, and none has to").isEqualTo(6);
    }

    @Test
    void acceptsAFileOfExactlyTheSizeLimit() throws Exception {
        Path file = Files.writeString(dir.resolve("n"), "123");
        assertThat(builder(file).maxBytes(3).checkWhenRead(Duration.ofHours(1)).get())
                .isEqualTo(123);
    }

    @Test
    void aFailingListenerDoesNotKeepTheOthersFromHearing() throws Exception {
        Path file = Files.writeString(dir.resolve("n"), "5");
        WatchedFile<Integer> watched = builder(file).checkWhenRead(Duration.ofHours(1));
        List<Integer> heard = new CopyOnWriteArrayList<>();
        watched.onChange(value -> {
            throw new IllegalStateException("listener bug");
        });
        watched.onChange(heard::add);

        Files.writeString(file, "6");

        assertThat(watched.refresh()).isTrue();
        assertThat(heard).containsExactly(6);
    }

    @Test
    void polledFilesShareOneDaemonThreadAndClosingStopsPolling() throws Exception {
        Path first = Files.writeString(dir.resolve("a"), "1");
        Path second = Files.writeString(dir.resolve("b"), "1");
        List<Thread> pollers = new CopyOnWriteArrayList<>();
        WatchedFile<Integer> a = builder(first).pollEvery(Duration.ofMillis(50));
        WatchedFile<Integer> b = builder(second).pollEvery(Duration.ofMillis(50));
        a.onChange(v -> pollers.add(Thread.currentThread()));
        b.onChange(v -> pollers.add(Thread.currentThread()));

        Files.writeString(first, "2");
        Files.writeString(second, "2");
        await().atMost(Duration.ofSeconds(10)).until(() -> a.get() == 2 && b.get() == 2);

        assertThat(pollers).hasSize(2).allMatch(Thread::isDaemon);
        assertThat(pollers.get(0)).isSameAs(pollers.get(1));
        a.close();
        Files.writeString(first, "3");
        Files.writeString(second, "3");
        await().atMost(Duration.ofSeconds(10)).until(() -> b.get() == 3);
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> a.get() == 2);
        b.close();
    }

    @Test
    void aReloadCarriesAnErrorExactlyWhenItWasNotApplied() {
        assertThatThrownBy(() -> new Reload(Reload.Outcome.APPLIED, "why", Instant.EPOCH))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Reload(Reload.Outcome.REJECTED, null, Instant.EPOCH))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(Reload.Outcome.UNREADABLE.tag()).isEqualTo("unreadable");
    }
}
