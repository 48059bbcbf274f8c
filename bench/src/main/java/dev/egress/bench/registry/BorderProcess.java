package dev.egress.bench.registry;

import dev.egress.discovery.registry.AnnouncedIp;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.AnnouncementWriter;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.registry.Registration;
import dev.egress.discovery.registry.RegistrationState;
import dev.egress.discovery.registry.RegistrySettings;
import dev.egress.discovery.registry.ydb.YdbBorderRegistry;
import dev.egress.discovery.registry.ydb.YdbRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * A Border reduced to its registration, run as a separate JVM so the benchmark can kill it with
 * SIGKILL: the only honest way to measure how long a dead Border stays in the registry.
 * Args: connection string, node, session timeout in ms, border id. Prints {@code REGISTERED}.
 */
public final class BorderProcess {

    private BorderProcess() {}

    /**
     * Registers and blocks until killed.
     *
     * @param args connection string, node, session timeout (ms), border id
     * @throws InterruptedException never in practice
     */
    public static void main(String[] args) throws InterruptedException {
        RegistryPropagationBench.quietLogs();
        RegistrySettings settings = new RegistrySettings(
                args[0],
                args[1],
                "borders-registry",
                Duration.ofMillis(Long.parseLong(args[2])),
                Duration.ofMillis(500));
        YdbBorderRegistry registry = YdbRegistry.at(settings, new SimpleMeterRegistry())
                .writer(AnnouncementWriter.unsignedForInsecureLocal())
                .connect();
        Registration registration = registry.register(Announcement.initial(
                BorderId.of(args[3]),
                URI.create("http://127.0.0.1:8181"),
                List.of(new AnnouncedIp(EgressIp.of("127.0.0.9"), IpStatus.ACTIVE)),
                Instant.now()));
        CountDownLatch registered = new CountDownLatch(1);
        registration.onStateChange(state -> {
            if (state == RegistrationState.REGISTERED) {
                registered.countDown();
            }
        });
        if (registration.state() == RegistrationState.REGISTERED) {
            registered.countDown();
        }
        registered.await();
        System.out.println("REGISTERED");
        System.out.flush();
        new CountDownLatch(1).await();
    }
}
