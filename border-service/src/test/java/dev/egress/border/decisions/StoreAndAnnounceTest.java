package dev.egress.border.decisions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.egress.border.UnavailableException;
import dev.egress.border.registration.BorderRegistrar;
import dev.egress.border.testing.InMemoryBorderRegistry;
import dev.egress.discovery.registry.AnnouncedIp;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An operator's change is stored and announced at once, so that Apps see it one registry round trip after the
 * operator's call instead of two; it is answered only once stored, and taken back when it cannot be stored.
 */
class StoreAndAnnounceTest {

    private static final EgressIp IP2 = EgressIp.of("127.0.0.2");
    private static final EgressIp IP3 = EgressIp.of("127.0.0.3");

    private final InMemoryBorderRegistry registry = new InMemoryBorderRegistry();
    private BorderRegistrar registrar;
    private DecisionKeeper keeper;

    @BeforeEach
    void registered() {
        registrar = new BorderRegistrar(
                registry,
                Announcement.initial(
                        BorderId.of("border-s"),
                        URI.create("https://127.0.0.1:8181"),
                        List.of(new AnnouncedIp(IP2, IpStatus.ACTIVE), new AnnouncedIp(IP3, IpStatus.ACTIVE)),
                        Instant.now()));
        keeper = new DecisionKeeper(
                registry.decisions(),
                registrar,
                List.of(IP2, IP3),
                IpStatus.ACTIVE,
                Duration.ofSeconds(5),
                new SimpleMeterRegistry());
        keeper.restore();
        registrar.register();
    }

    @Test
    void announcesTheChangeWhileItsRecordIsStillBeingStored() {
        CompletableFuture<Void> slowStore = registry.decisions().holdWrites();

        CompletableFuture<Announcement> answer = keeper.change(IP3, IpStatus.DISABLED);

        assertThat(registry.held().statusOf(IP3)).as("in the registry already").contains(IpStatus.DISABLED);
        assertThat(answer).as("answered only once stored").isNotDone();
        assertThat(registry.decisions().stored()).isNull();

        slowStore.complete(null);

        assertThat(answer.join().statusOf(IP3)).contains(IpStatus.DISABLED);
        assertThat(new String(registry.decisions().stored(), StandardCharsets.US_ASCII))
                .contains("\"127.0.0.3\":\"DISABLED\"");
        assertThat(keeper.state().kind()).isEqualTo(DecisionsState.Kind.STORED);
    }

    @Test
    void takesTheChangeBackAndAnswers503WhenTheRecordCannotBeStored() {
        long before = registry.held().generation();
        CompletableFuture<Void> slowStore = registry.decisions().holdWrites();
        CompletableFuture<Announcement> answer = keeper.change(IP3, IpStatus.DISABLED);
        assertThat(registry.held().statusOf(IP3)).contains(IpStatus.DISABLED);

        registry.decisions().failWrites(true);
        slowStore.complete(null);

        assertThatThrownBy(answer::join)
                .isInstanceOf(CompletionException.class)
                .cause()
                .isInstanceOf(UnavailableException.class)
                .hasMessageContaining("could not be stored");
        assertThat(registry.held().statusOf(IP3)).as("taken back").contains(IpStatus.ACTIVE);
        assertThat(registrar.statusOf(IP3)).as("the gate's status too").contains(IpStatus.ACTIVE);
        assertThat(registry.held().generation())
                .as("announced, then taken back")
                .isEqualTo(before + 2);
        assertThat(registry.decisions().stored()).isNull();
        assertThat(keeper.decisions().statuses()).doesNotContainKey(IP3);
    }

    @Test
    void whatShutdownSetMeanwhileStandsWhenTheChangeIsTakenBack() {
        CompletableFuture<Void> slowStore = registry.decisions().holdWrites();
        CompletableFuture<Announcement> answer = keeper.change(IP3, IpStatus.DISABLED);
        registrar.setAll(IpStatus.DRAINING); // SIGTERM while the record is being stored

        registry.decisions().failWrites(true);
        slowStore.complete(null);

        assertThatThrownBy(answer::join).cause().isInstanceOf(UnavailableException.class);
        assertThat(registry.held().statusOf(IP3)).contains(IpStatus.DRAINING);
        assertThat(registry.held().statusOf(IP2)).contains(IpStatus.DRAINING);
    }

    @Test
    void aReleaseThatCannotBeStoredIsClaimedAgain() {
        registry.decisions().failWrites(true);

        assertThatThrownBy(() -> keeper.release(IP2, true).join()).cause().isInstanceOf(UnavailableException.class);

        assertThat(registrar.isReleased(IP2)).isFalse();
        assertThat(registry.held().ips())
                .filteredOn(ip -> ip.ip().equals(IP2))
                .singleElement()
                .satisfies(ip -> assertThat(ip.reason()).isNull());
    }
}
