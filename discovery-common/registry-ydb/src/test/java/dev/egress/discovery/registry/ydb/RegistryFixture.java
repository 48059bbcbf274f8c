package dev.egress.discovery.registry.ydb;

import dev.egress.discovery.registry.AnnouncedIp;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.AnnouncementReader;
import dev.egress.discovery.registry.AnnouncementWriter;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.registry.RegistryAuth;
import dev.egress.discovery.registry.RegistrySettings;
import dev.egress.discovery.registry.RoutingGauges;
import dev.egress.discovery.registry.RoutingTable;
import dev.egress.discovery.trust.AnnouncementVerifier;
import dev.egress.ydb.coordination.EmbeddedCoordinationNode;
import dev.egress.ydb.coordination.NodeAccess;
import io.grpc.ClientInterceptor;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * An embedded coordination node plus the Borders and watchers of one test, all closed together.
 * Every participant gets its own transport and meter registry, as separate processes would.
 */
final class RegistryFixture implements AutoCloseable {

    private final List<AutoCloseable> participants = new ArrayList<>();
    private final Duration sessionTimeout;
    private final Duration pollInterval;
    private final String connectionString;
    private EmbeddedCoordinationNode node;
    private int port;

    RegistryFixture(Duration sessionTimeout) {
        this(sessionTimeout, Duration.ofMillis(500));
    }

    RegistryFixture(Duration sessionTimeout, Duration pollInterval) {
        this(sessionTimeout, pollInterval, NodeAccess.ANONYMOUS);
    }

    RegistryFixture(Duration sessionTimeout, Duration pollInterval, NodeAccess access) {
        this.sessionTimeout = sessionTimeout;
        this.pollInterval = pollInterval;
        this.node = EmbeddedCoordinationNode.start(
                EmbeddedCoordinationNode.DEFAULT_HOST, 0, EmbeddedCoordinationNode.DEFAULT_DATABASE, access);
        this.port = node.port();
        this.connectionString = node.connectionString();
    }

    RegistrySettings settings() {
        return new RegistrySettings(connectionString, "egress", "borders-registry", sessionTimeout, pollInterval);
    }

    /** Stops the node: every session and the semaphore are gone, as after a YDB restart. */
    void stopNode() {
        node.close();
        node = null;
    }

    /** Starts the node again on the same port, empty. */
    void startNode() {
        node = EmbeddedCoordinationNode.start(port);
    }

    YdbBorderRegistry border() {
        return border(new SimpleMeterRegistry(), List.of());
    }

    YdbBorderRegistry border(MeterRegistry meters, List<ClientInterceptor> interceptors) {
        YdbBorderRegistry registry = YdbRegistry.at(settings(), meters)
                .interceptors(interceptors)
                .writer(AnnouncementWriter.unsignedForInsecureLocal())
                .connect();
        participants.add(registry);
        return registry;
    }

    YdbBorderRegistry border(RegistryAuth auth, MeterRegistry meters) {
        YdbBorderRegistry registry = YdbRegistry.at(settings().withAuth(auth), meters)
                .writer(AnnouncementWriter.unsignedForInsecureLocal())
                .connect();
        participants.add(registry);
        return registry;
    }

    Watched watcher() {
        return watcher(List.of());
    }

    /** A Border whose registry signs its announcements with {@code writer}. */
    YdbBorderRegistry border(AnnouncementWriter writer) {
        return border(writer, Clock.systemUTC());
    }

    /** A Border whose registry signs its announcements with {@code writer} and stamps them by {@code clock}. */
    YdbBorderRegistry border(AnnouncementWriter writer, Clock clock) {
        YdbBorderRegistry registry = YdbRegistry.at(settings(), new SimpleMeterRegistry())
                .writer(writer)
                .clock(clock)
                .connect();
        participants.add(registry);
        return registry;
    }

    /** A watcher that reads owners through {@code reader} (an App verifying signatures). */
    Watched watcher(AnnouncementReader reader) {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        RoutingTable table = new RoutingTable(Clock.systemUTC());
        YdbRegistryWatcher watcher =
                YdbRegistry.at(settings(), meters).reader(reader).watch(table);
        participants.add(watcher);
        return new Watched(watcher, table, meters);
    }

    Watched watcher(List<ClientInterceptor> interceptors) {
        return watcher(settings(), interceptors);
    }

    /** A watcher with read-only rights: creates neither the node nor the semaphore. */
    Watched readOnlyWatcher() {
        return watcher(settings().withCreateIfMissing(false), List.of());
    }

    Watched watcher(RegistryAuth auth) {
        return watcher(settings().withAuth(auth), List.of());
    }

    private Watched watcher(RegistrySettings settings, List<ClientInterceptor> interceptors) {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        RoutingTable table = new RoutingTable(Clock.systemUTC());
        RoutingGauges.bind(table, meters); // as App binds them beside its watcher
        YdbRegistryWatcher watcher = YdbRegistry.at(settings, meters)
                .interceptors(interceptors)
                .reader(AnnouncementVerifier.unverifiedForInsecureLocal())
                .watch(table);
        participants.add(watcher);
        return new Watched(watcher, table, meters);
    }

    record Watched(YdbRegistryWatcher watcher, RoutingTable table, SimpleMeterRegistry meters) {

        Announcement of(String border) {
            return table.current().announcements().get(BorderId.of(border));
        }

        boolean has(String border) {
            return of(border) != null;
        }
    }

    static Announcement announcement(String border, String... ips) {
        List<AnnouncedIp> announced = new ArrayList<>();
        for (String ip : ips) {
            announced.add(new AnnouncedIp(EgressIp.of(ip), IpStatus.ACTIVE));
        }
        return Announcement.initial(BorderId.of(border), URI.create("http://127.0.0.1:8181"), announced, Instant.now());
    }

    @Override
    public void close() {
        for (int i = participants.size() - 1; i >= 0; i--) {
            try {
                participants.get(i).close();
            } catch (Exception ignored) {
                // best effort: the node goes next anyway
            }
        }
        if (node != null) {
            node.close();
        }
    }
}
