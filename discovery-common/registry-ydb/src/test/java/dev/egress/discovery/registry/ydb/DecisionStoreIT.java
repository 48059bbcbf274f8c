package dev.egress.discovery.registry.ydb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.DecisionStore;
import dev.egress.discovery.registry.RegistryException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** A Border's decision record on a real (embedded) coordination node, through the SDK. */
class DecisionStoreIT {

    private static final BorderId BORDER_A = BorderId.of("border-a");

    @AutoClose
    private final RegistryFixture fixture = new RegistryFixture(Duration.ofSeconds(2));

    @Test
    void readsNothingBeforeTheFirstWriteAndTheLastRecordAfterwards() throws Exception {
        DecisionStore store = fixture.border().decisions(BORDER_A);

        assertThat(get(store.read())).isEmpty();

        get(store.write(bytes("{\"first\":1}")));
        assertThat(get(store.read()))
                .hasValueSatisfying(data -> assertThat(data).isEqualTo(bytes("{\"first\":1}")));

        get(store.write(bytes("{\"second\":2}")));
        assertThat(get(store.read()))
                .hasValueSatisfying(data -> assertThat(data).isEqualTo(bytes("{\"second\":2}")));
    }

    @Test
    void theRecordOutlivesTheRegistryClientThatWroteIt() throws Exception {
        YdbBorderRegistry first = fixture.border();
        get(first.decisions(BORDER_A).write(bytes("kept")));
        first.abandon(); // the Border process dies without a word

        DecisionStore again = fixture.border().decisions(BORDER_A);
        assertThat(get(again.read()))
                .hasValueSatisfying(data -> assertThat(data).isEqualTo(bytes("kept")));
    }

    @Test
    void eachBorderHasARecordOfItsOwn() throws Exception {
        YdbBorderRegistry registry = fixture.border();
        get(registry.decisions(BORDER_A).write(bytes("a")));

        assertThat(get(registry.decisions(BorderId.of("border-b")).read())).isEmpty();
        assertThat(YdbDecisionStore.semaphoreName("borders-registry", BORDER_A))
                .isEqualTo("borders-registry/decisions/border-a");
    }

    @Test
    void failsWithARegistryExceptionWhenTheNodeIsDown() {
        DecisionStore store = fixture.border().decisions(BORDER_A);
        fixture.stopNode();

        assertThatThrownBy(() -> get(store.read()))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(RegistryException.class)
                .hasMessageContaining("decisions");
        assertThatThrownBy(() -> get(store.write(bytes("x")))).cause().isInstanceOf(RegistryException.class);
    }

    @Test
    void aStoreWorksAgainAfterTheNodeRestarts() throws Exception {
        DecisionStore store = fixture.border().decisions(BORDER_A);
        get(store.write(bytes("before")));

        fixture.stopNode();
        fixture.startNode(); // empty: the session the store kept is gone with everything else

        await().atMost(Duration.ofSeconds(60))
                .ignoreExceptions() // the first reads after the restart may still find no node
                .untilAsserted(() -> assertThat(get(store.read())).isEmpty());
        get(store.write(bytes("after")));
        assertThat(get(store.read()))
                .hasValueSatisfying(data -> assertThat(data).isEqualTo(bytes("after")));
    }

    @Test
    void refusesAnEmptyOrOversizedRecordBeforeAnyIo() {
        DecisionStore store = fixture.border().decisions(BORDER_A);

        assertThatThrownBy(() -> store.write(new byte[0])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.write(new byte[DecisionStore.MAX_BYTES + 1]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected: 1..65536");
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static <T> T get(CompletableFuture<T> future) throws Exception {
        return future.get(60, TimeUnit.SECONDS);
    }
}
