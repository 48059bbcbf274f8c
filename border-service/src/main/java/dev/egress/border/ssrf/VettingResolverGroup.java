package dev.egress.border.ssrf;

import io.netty.resolver.AbstractAddressResolver;
import io.netty.resolver.AddressResolver;
import io.netty.resolver.AddressResolverGroup;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Promise;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * The only resolver the egress clients use: it resolves a host once per new connection through
 * {@link SsrfGuard#resolveAndVet} and hands Netty exactly the vetted addresses, so there is no second
 * lookup between the check and the connect (DNS-rebinding safe). Lookups run on {@code executor},
 * never on an event loop.
 */
public final class VettingResolverGroup extends AddressResolverGroup<InetSocketAddress> {

    private final SsrfGuard guard;
    private final Executor executor;

    /**
     * Creates the group.
     *
     * @param guard    the guard
     * @param executor where blocking lookups run
     */
    public VettingResolverGroup(SsrfGuard guard, Executor executor) {
        this.guard = guard;
        this.executor = executor;
    }

    @Override
    protected AddressResolver<InetSocketAddress> newResolver(EventExecutor eventExecutor) {
        return new Resolver(eventExecutor);
    }

    private final class Resolver extends AbstractAddressResolver<InetSocketAddress> {

        Resolver(EventExecutor eventExecutor) {
            super(eventExecutor, InetSocketAddress.class);
        }

        @Override
        protected boolean doIsResolved(InetSocketAddress address) {
            return !address.isUnresolved();
        }

        @Override
        protected void doResolve(InetSocketAddress unresolved, Promise<InetSocketAddress> promise) {
            executor.execute(() -> {
                try {
                    List<InetAddress> vetted = guard.resolveAndVet(unresolved.getHostString(), unresolved.getPort());
                    promise.trySuccess(new InetSocketAddress(vetted.get(0), unresolved.getPort()));
                } catch (Throwable t) {
                    promise.tryFailure(t);
                }
            });
        }

        @Override
        protected void doResolveAll(InetSocketAddress unresolved, Promise<List<InetSocketAddress>> promise) {
            executor.execute(() -> {
                try {
                    List<InetAddress> vetted = guard.resolveAndVet(unresolved.getHostString(), unresolved.getPort());
                    promise.trySuccess(vetted.stream().map(a -> new InetSocketAddress(a, unresolved.getPort())).toList());
                } catch (Throwable t) {
                    promise.tryFailure(t);
                }
            });
        }
    }
}
