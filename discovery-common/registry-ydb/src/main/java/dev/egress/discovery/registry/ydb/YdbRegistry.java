package dev.egress.discovery.registry.ydb;

import dev.egress.discovery.registry.AnnouncementReader;
import dev.egress.discovery.registry.AnnouncementWriter;
import dev.egress.discovery.registry.RegistrySettings;
import dev.egress.discovery.registry.RoutingTable;
import io.grpc.ClientInterceptor;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.List;
import java.util.Objects;

/**
 * The one way to build a registry client on a YDB coordination node. A participant says what it does with
 * announcements, and that decides what it gets: {@link Builder#reader reader(...)} (how owner data becomes an
 * announcement, normally an {@code dev.egress.discovery.trust.AnnouncementVerifier}) leads to App's
 * {@link YdbRegistryWatcher}, {@link Builder#writer writer(...)} (how an announcement becomes owner data,
 * normally an {@code dev.egress.discovery.trust.AnnouncementSigner}) to a Border's {@link YdbBorderRegistry}.
 * There is no default for either: routing on unverified announcements or publishing unsigned ones is the
 * explicit, named choice of {@code insecure-local}
 * ({@code dev.egress.discovery.trust.AnnouncementVerifier#unverifiedForInsecureLocal()},
 * {@link AnnouncementWriter#unsignedForInsecureLocal()}).
 *
 * <pre>{@code
 * YdbRegistryWatcher watcher = YdbRegistry.at(settings, meters).reader(verifier).watch(table);
 * YdbBorderRegistry registry = YdbRegistry.at(settings, meters).writer(signer).connect();
 * }</pre>
 */
public final class YdbRegistry {

    private YdbRegistry() {}

    /**
     * Starts building a client of the registry at {@code settings}.
     *
     * @param settings where the registry is
     * @param meters   where the client's metrics go
     * @return the builder
     */
    public static Builder at(RegistrySettings settings, MeterRegistry meters) {
        return new Builder(Objects.requireNonNull(settings, "settings"), Objects.requireNonNull(meters, "meters"));
    }

    /** What every participant needs; {@link #reader} or {@link #writer} picks the role. */
    public static final class Builder {

        private final RegistrySettings settings;
        private final MeterRegistry meters;
        private List<ClientInterceptor> interceptors = List.of();

        private Builder(RegistrySettings settings, MeterRegistry meters) {
            this.settings = settings;
            this.meters = meters;
        }

        /** Adds gRPC interceptors to every channel (tests cut streams with one); none in production. */
        Builder interceptors(List<ClientInterceptor> added) {
            this.interceptors = List.copyOf(added);
            return this;
        }

        /**
         * The read side: App's watcher, which routes only on what {@code reader} accepts.
         *
         * @param reader reads and verifies each owner's data
         * @return the watcher's builder
         */
        public Watching reader(AnnouncementReader reader) {
            return new Watching(this, Objects.requireNonNull(reader, "reader"));
        }

        /**
         * The publish side: a Border's registry, which publishes what {@code writer} makes of its announcements.
         *
         * @param writer turns announcements into owner data (signing them)
         * @return the registry's builder
         */
        public Publishing writer(AnnouncementWriter writer) {
            return new Publishing(this, Objects.requireNonNull(writer, "writer"));
        }
    }

    /** A watcher, once its reader is known. */
    public static final class Watching {

        private final Builder common;
        private final AnnouncementReader reader;

        private Watching(Builder common, AnnouncementReader reader) {
            this.common = common;
            this.reader = reader;
        }

        /**
         * Starts watching. Returns at once; all I/O happens in the background with retries, and the table
         * becomes ready with the first successful read.
         *
         * @param table the routing table to keep current
         * @return the running watcher
         */
        public YdbRegistryWatcher watch(RoutingTable table) {
            YdbRegistryWatcher watcher = new YdbRegistryWatcher(
                    common.settings,
                    Objects.requireNonNull(table, "table"),
                    common.meters,
                    Clock.systemUTC(),
                    reader,
                    common.interceptors);
            watcher.start();
            return watcher;
        }
    }

    /** A Border's registry, once its writer is known. */
    public static final class Publishing {

        private final Builder common;
        private final AnnouncementWriter writer;
        private Clock wall = Clock.systemUTC();

        private Publishing(Builder common, AnnouncementWriter writer) {
            this.common = common;
            this.writer = writer;
        }

        /**
         * The wall clock announcements are stamped by (tests; the system clock otherwise). Whichever it is, the
         * stamps never step back ({@link SteadyClock}).
         *
         * @param clock the wall clock
         * @return this builder
         */
        Publishing clock(Clock clock) {
            this.wall = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Creates the registry client. Returns at once; all I/O (transport, node and semaphore creation,
         * sessions) happens in the background with retries, so a Border starts even while YDB is down.
         *
         * @return the client
         */
        public YdbBorderRegistry connect() {
            return new YdbBorderRegistry(
                    common.settings, common.meters, SteadyClock.over(wall), writer, common.interceptors);
        }
    }
}
