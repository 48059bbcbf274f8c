package dev.egress.border.egress;

import dev.egress.border.HostedIps;
import dev.egress.border.ssrf.VettingResolverGroup;
import dev.egress.discovery.registry.EgressIp;
import io.netty.channel.ChannelOption;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollChannelOption;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;

/**
 * One Reactor Netty {@link HttpClient} per dedicated IP, each binding its sockets to that IP's bind
 * address, each with its own connection pool (so pools are keyed by source IP, and within a pool by
 * destination host and port). Clients are looked up by the IP's public address, its identity in every
 * request; the bind address comes only from this Border's own configuration ({@link HostedIps}), never
 * from a request. Construction fails fast if any bind address cannot be bound.
 */
final class BoundClients implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(BoundClients.class);

    private final Map<EgressIp, HttpClient> clients;
    private final Map<EgressIp, EgressIp> binds;
    private final List<ConnectionProvider> providers;

    BoundClients(
            HostedIps hosted,
            LimitsProperties limits,
            PoolProperties pool,
            VettingResolverGroup resolver,
            TargetTls tls) {
        hosted.bindByPublic().forEach(BoundClients::checkBindable);
        Map<EgressIp, HttpClient> built = new LinkedHashMap<>();
        List<ConnectionProvider> created = new ArrayList<>();
        for (Map.Entry<EgressIp, EgressIp> hostedIp : hosted.bindByPublic().entrySet()) {
            EgressIp ip = hostedIp.getKey();
            ConnectionProvider provider = ConnectionProvider.builder("egress-" + ip.value())
                    .maxConnections(pool.maxConnections())
                    // Waiting is bounded by the per-IP concurrency limit already; this is a safety net.
                    .pendingAcquireMaxCount(Math.max(limits.maxConcurrencyPerIp(), 1) * 2)
                    .pendingAcquireTimeout(pool.pendingAcquireTimeout())
                    .maxIdleTime(pool.maxIdleTime())
                    .maxLifeTime(pool.maxLifeTime())
                    .evictInBackground(pool.evictionInterval())
                    // LIFO keeps a few connections hot and lets the surplus go idle and be evicted.
                    .lifo()
                    .build();
            created.add(provider);
            InetSocketAddress bind = new InetSocketAddress(hostedIp.getValue().toInetAddress(), 0);
            HttpClient client = HttpClient.create(provider).bindAddress(() -> bind);
            if (LoopResources.DEFAULT_NATIVE && Epoll.isAvailable()) {
                // bind(ip, 0) alone reserves a port for the source IP across all destinations, so one IP could
                // hold ~28k connections in all; deferring the choice to connect() lets the kernel reuse a port
                // for different destinations: the bound becomes ports per (source IP, destination).
                client = client.option(EpollChannelOption.IP_BIND_ADDRESS_NO_PORT, true);
            }
            client = client.resolver(resolver)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int)
                            Math.min(Integer.MAX_VALUE, limits.connectTimeout().toMillis()))
                    .responseTimeout(limits.responseTimeout())
                    .followRedirect(false)
                    .keepAlive(true)
                    .compress(false)
                    // Reactor Netty would resend a request once when a pooled connection dies under it; the
                    // target may already have it, and a webhook must not be sent twice behind App's back.
                    .disableRetry(true);
            built.put(ip, tls.apply(client));
        }
        this.clients = Map.copyOf(built);
        this.binds = Map.copyOf(hosted.bindByPublic());
        this.providers = List.copyOf(created);
        log.info("Bound egress clients for {} (bind=public where they differ)", hosted);
    }

    /**
     * The client bound to an IP.
     *
     * @param ip the IP's public address
     * @return the client (bound to the IP's bind address), or null if the IP is not hosted here
     */
    @Nullable
    HttpClient client(EgressIp ip) {
        return clients.get(ip);
    }

    /**
     * The address a hosted IP's sockets are bound to.
     *
     * @param ip the IP's public address
     * @return its bind address, empty if the IP is not hosted here (as {@link HostedIps#bindOf})
     */
    Optional<EgressIp> bindOf(EgressIp ip) {
        return Optional.ofNullable(binds.get(ip));
    }

    Set<EgressIp> ips() {
        return clients.keySet();
    }

    private static void checkBindable(EgressIp ip, EgressIp bind) {
        try (Socket probe = new Socket()) {
            probe.bind(new InetSocketAddress(bind.toInetAddress(), 0));
        } catch (IOException e) {
            throw new IpNotBindableException(
                    bind.value(), ip.equals(bind) ? null : ip.value(), String.valueOf(e.getMessage()), e);
        }
    }

    @Override
    public void close() {
        providers.forEach(p -> p.disposeLater().subscribe());
    }
}
