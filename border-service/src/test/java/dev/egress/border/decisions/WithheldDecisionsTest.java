package dev.egress.border.decisions;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An operator's stored decision and the Border's own withholding (the egress identity check) are two layers:
 * an IP withheld at start still gets its stored decision, so when the check confirms it, it comes back with
 * what the operator decided, not with the initial status.
 */
class WithheldDecisionsTest {

    private static final EgressIp IP2 = EgressIp.of("127.0.0.2");
    private static final EgressIp IP3 = EgressIp.of("127.0.0.3");

    @Test
    void aStoredDisabledSurvivesTheIdentityCheckReleasingTheIp() {
        InMemoryBorderRegistry registry = new InMemoryBorderRegistry();
        registry.decisions()
                .preset(("{\"version\":1,\"borderId\":\"border-w\",\"decisions\":{\"127.0.0.3\":\"DISABLED\"}}")
                        .getBytes(StandardCharsets.US_ASCII));
        BorderRegistrar registrar = new BorderRegistrar(
                registry,
                Announcement.initial(
                        BorderId.of("border-w"),
                        URI.create("https://127.0.0.1:8181"),
                        List.of(new AnnouncedIp(IP2, IpStatus.ACTIVE), new AnnouncedIp(IP3, IpStatus.ACTIVE)),
                        Instant.now()));
        // The identity check withholds both IPs before anything is announced, as at every start with it on.
        registrar.withhold(Map.of(IP2, "egress-identity-unverified", IP3, "egress-identity-unverified"));
        DecisionKeeper keeper = new DecisionKeeper(
                registry.decisions(),
                registrar,
                List.of(IP2, IP3),
                IpStatus.ACTIVE,
                Duration.ofSeconds(5),
                new SimpleMeterRegistry());

        keeper.restore();
        assertThat(registrar.statusOf(IP3)).contains(IpStatus.DISABLED);
        registrar.withhold(Map.of()).join();

        assertThat(registrar.statusOf(IP2)).contains(IpStatus.ACTIVE);
        assertThat(registrar.statusOf(IP3)).as("the operator's stored DISABLED").contains(IpStatus.DISABLED);
        assertThat(registrar.current().ips())
                .allSatisfy(ip -> assertThat(ip.reason()).isNull());
    }
}
