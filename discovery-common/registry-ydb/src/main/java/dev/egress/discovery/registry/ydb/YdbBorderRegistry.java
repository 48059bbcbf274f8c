package dev.egress.discovery.registry.ydb;

import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.AnnouncementWriter;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.BorderRegistry;
import dev.egress.discovery.registry.DecisionStore;
import dev.egress.discovery.registry.Registration;
import dev.egress.discovery.registry.RegistrySettings;
import io.grpc.ClientInterceptor;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Publish side of the registry on a YDB coordination node (docs/architecture.md, "The registry protocol"):
 * each {@link Registration} holds count 1 of the persistent semaphore with the Border's announcement as owner
 * data, in its own coordination session, and keeps it there across reconnects, lost sessions and node
 * restarts. Built by {@link YdbRegistry}, which requires the {@link AnnouncementWriter}.
 */
public final class YdbBorderRegistry implements BorderRegistry {

    private final YdbConnection connection;
    private final MeterRegistry meters;
    private final AnnouncementWriter writer;
    private final Clock clock;
    private final List<YdbRegistration> registrations = new CopyOnWriteArrayList<>();
    /** Completes the decision stores' SDK calls (its thread starts with the first one). */
    private final RegistryLoop decisionsLoop = new RegistryLoop("egress-registry-decisions");

    private final List<YdbDecisionStore> decisionStores = new CopyOnWriteArrayList<>();

    private volatile boolean closed;

    /** Built by {@link YdbRegistry}. */
    YdbBorderRegistry(
            RegistrySettings settings,
            MeterRegistry meters,
            Clock clock,
            AnnouncementWriter writer,
            List<ClientInterceptor> interceptors) {
        this.writer = writer;
        this.connection = new YdbConnection(settings, "egress-registry-connect", interceptors);
        this.meters = meters;
        this.clock = clock;
    }

    /**
     * {@inheritDoc}
     *
     * <p>The initial announcement keeps its generation and is stamped with the current time. Watch
     * {@link Registration#state()} for readiness.
     *
     * @throws dev.egress.discovery.registry.InvalidAnnouncementException if it exceeds the payload limit
     * @throws IllegalStateException if the registry is closed
     */
    @Override
    public Registration register(Announcement initial) {
        Objects.requireNonNull(initial, "initial");
        if (closed) {
            throw new IllegalStateException("registry closed");
        }
        YdbRegistration registration = new YdbRegistration(
                connection,
                initial,
                writer,
                clock,
                new RegistrationMetrics(meters, initial.borderId()),
                registrations::remove);
        registrations.add(registration);
        registration.start();
        return registration;
    }

    /**
     * {@inheritDoc}
     *
     * <p>The record is the data of the persistent semaphore {@code <semaphore>/decisions/<borderId>}, read
     * and written over this registry's transport ({@link YdbDecisionStore}).
     */
    @Override
    public DecisionStore decisions(BorderId borderId) {
        YdbDecisionStore store =
                new YdbDecisionStore(connection, decisionsLoop, Objects.requireNonNull(borderId, "borderId"));
        decisionStores.add(store);
        return store;
    }

    /** Releases every slot, stops every session, then closes the transport. */
    @Override
    public void close() {
        closed = true;
        for (YdbRegistration registration : registrations) {
            registration.close();
        }
        decisionStores.forEach(YdbDecisionStore::close);
        connection.close();
        decisionsLoop.close();
    }

    /**
     * Simulates the death of this process for tests: stops every loop and breaks the transport without
     * releasing slots or stopping sessions, so the server keeps the slots for the session timeout.
     */
    void abandon() {
        closed = true;
        for (YdbRegistration registration : registrations) {
            registration.abandon();
        }
        connection.abandon();
        decisionsLoop.close();
    }
}
