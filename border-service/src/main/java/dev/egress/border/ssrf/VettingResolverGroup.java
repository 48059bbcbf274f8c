package dev.egress.border.ssrf;

import io.netty.channel.EventLoop;
import io.netty.resolver.AbstractAddressResolver;
import io.netty.resolver.AddressResolver;
import io.netty.resolver.AddressResolverGroup;
import io.netty.resolver.dns.DnsAddressResolverGroup;
import io.netty.resolver.dns.DnsNameResolverTimeoutException;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The only resolver the egress clients use. Names are resolved by Netty's non-blocking DNS resolver
 * ({@link DnsAddressResolverGroup}) on the connection's own event loop, once per new connection; every
 * resolved address is vetted by {@link SsrfGuard#vetResolved} and Netty gets exactly the vetted
 * addresses, so there is no second lookup between the check and the connect (DNS-rebinding safe).
 * IP literals are never looked up.
 *
 * <p>A DNS server that never answers must not hold anyone but the deliveries to its names: nothing
 * here blocks a thread, each resolution ends after {@code resolveTimeout} at the latest, and at most
 * {@code maxPendingPerName} connection attempts may wait on one name at a time (concurrent queries for
 * one name are also consolidated into one by the resolver); beyond that a delivery fails at once.
 */
public final class VettingResolverGroup extends AddressResolverGroup<InetSocketAddress> {

    private final SsrfGuard guard;
    private final DnsAddressResolverGroup dns;
    private final Duration resolveTimeout;
    private final int maxPendingPerName;
    private final ConcurrentHashMap<String, AtomicInteger> pending = new ConcurrentHashMap<>();

    /**
     * Creates the group.
     *
     * @param guard             the guard
     * @param dns               Netty's DNS resolvers (one per event loop), closed with this group
     * @param resolveTimeout    the longest one resolution may take, all queries and retries included
     * @param maxPendingPerName how many connection attempts may wait on one name's resolution at once
     */
    VettingResolverGroup(SsrfGuard guard, DnsAddressResolverGroup dns, Duration resolveTimeout, int maxPendingPerName) {
        this.guard = guard;
        this.dns = dns;
        this.resolveTimeout = resolveTimeout;
        this.maxPendingPerName = maxPendingPerName;
    }

    @Override
    protected AddressResolver<InetSocketAddress> newResolver(EventExecutor executor) {
        if (!(executor instanceof EventLoop)) {
            throw new IllegalStateException(
                    "unsupported executor type: " + executor.getClass().getName() + " (expected: EventLoop)");
        }
        return new Resolver(executor, dns.getResolver(executor));
    }

    @Override
    public void close() {
        try {
            super.close();
        } finally {
            dns.close();
        }
    }

    private final class Resolver extends AbstractAddressResolver<InetSocketAddress> {

        private final AddressResolver<InetSocketAddress> names;

        Resolver(EventExecutor executor, AddressResolver<InetSocketAddress> names) {
            super(executor, InetSocketAddress.class);
            this.names = names;
        }

        @Override
        protected boolean doIsResolved(InetSocketAddress address) {
            return !address.isUnresolved();
        }

        @Override
        protected void doResolve(InetSocketAddress unresolved, Promise<InetSocketAddress> promise) {
            Promise<List<InetSocketAddress>> all = executor().newPromise();
            all.addListener(done -> {
                if (done.isSuccess()) {
                    promise.trySuccess(all.getNow().get(0));
                } else {
                    promise.tryFailure(done.cause());
                }
            });
            doResolveAll(unresolved, all);
        }

        @Override
        protected void doResolveAll(InetSocketAddress unresolved, Promise<List<InetSocketAddress>> promise) {
            String host = unresolved.getHostString();
            int port = unresolved.getPort();
            try {
                Optional<InetAddress> literal = guard.literal(host);
                if (literal.isPresent()) {
                    promise.trySuccess(sockets(guard.vetResolved(host, port, List.of(literal.get())), port));
                    return;
                }
            } catch (RuntimeException e) {
                promise.tryFailure(e);
                return;
            }
            String name = host.toLowerCase(Locale.ROOT);
            AtomicInteger waiting = pending.computeIfAbsent(name, n -> new AtomicInteger());
            if (waiting.incrementAndGet() > maxPendingPerName) {
                release(name, waiting);
                promise.tryFailure(DnsFailedException.busy(name, maxPendingPerName));
                return;
            }
            Future<List<InetSocketAddress>> lookup = names.resolveAll(unresolved);
            ScheduledFuture<?> deadline = executor()
                    .schedule(
                            () -> {
                                if (promise.tryFailure(DnsFailedException.timeout(name, resolveTimeout))) {
                                    lookup.cancel(false);
                                }
                            },
                            resolveTimeout.toNanos(),
                            TimeUnit.NANOSECONDS);
            lookup.addListener(done -> {
                deadline.cancel(false);
                release(name, waiting);
                if (promise.isDone()) {
                    return;
                }
                if (!done.isSuccess()) {
                    promise.tryFailure(failure(name, done.cause()));
                    return;
                }
                try {
                    List<InetAddress> addresses = lookup.getNow().stream()
                            .map(InetSocketAddress::getAddress)
                            .toList();
                    promise.trySuccess(sockets(guard.vetResolved(name, port, addresses), port));
                } catch (RuntimeException e) {
                    promise.tryFailure(e);
                }
            });
        }

        private void release(String name, AtomicInteger waiting) {
            if (waiting.decrementAndGet() == 0) {
                pending.remove(name, waiting);
            }
        }

        @Override
        public void close() {
            // The DNS resolvers belong to the group: closed with it.
        }
    }

    private static RuntimeException failure(String name, Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof DnsNameResolverTimeoutException) {
                return DnsFailedException.noAnswer(name, t);
            }
        }
        if (cause instanceof UnknownHostException) {
            return new TargetDeniedException(DenialReason.UNRESOLVABLE, "host '%s' does not resolve".formatted(name));
        }
        return DnsFailedException.failed(name, cause);
    }

    private static List<InetSocketAddress> sockets(List<InetAddress> addresses, int port) {
        return addresses.stream().map(a -> new InetSocketAddress(a, port)).toList();
    }
}
