package dev.egress.discovery.registry.ydb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RegistryLoopTest {

    private final RegistryLoop loop = new RegistryLoop("registry-loop-test");

    @AfterEach
    void tearDown() {
        loop.close();
    }

    @Test
    void periodicTaskKeepsRunningAfterItThrows() {
        AtomicInteger runs = new AtomicInteger();
        loop.every(Duration.ofMillis(10), () -> {
            runs.incrementAndGet();
            throw new IllegalStateException("boom");
        });
        await().atMost(Duration.ofSeconds(30)).until(() -> runs.get() >= 5);
    }

    @Test
    void throwingCallbackDoesNotStopTheLoop() {
        CompletableFuture<String> future = new CompletableFuture<>();
        loop.when(future, (value, failure) -> {
            throw new IllegalStateException("boom");
        });
        future.complete("x");
        AtomicReference<Boolean> onLoop = new AtomicReference<>();
        loop.execute(() -> onLoop.set(loop.inLoop()));
        await().atMost(Duration.ofSeconds(30)).until(() -> onLoop.get() != null);
        assertThat(onLoop.get()).isTrue();
        assertThat(loop.inLoop()).isFalse();
    }

    @Test
    void sdkCompletionsStillRunOnceTheLoopIsClosed() {
        loop.close();
        AtomicInteger ran = new AtomicInteger();
        loop.sdkExecutor().execute(ran::incrementAndGet);
        loop.execute(ran::incrementAndGet); // our own tasks are dropped
        assertThat(ran.get()).isEqualTo(1);
    }
}
