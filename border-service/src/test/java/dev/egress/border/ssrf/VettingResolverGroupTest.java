package dev.egress.border.ssrf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.channel.ChannelFactory;
import io.netty.channel.DefaultEventLoop;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.handler.codec.dns.DefaultDnsQuestion;
import io.netty.handler.codec.dns.DnsRecordType;
import io.netty.resolver.AbstractAddressResolver;
import io.netty.resolver.AddressResolver;
import io.netty.resolver.dns.DnsAddressResolverGroup;
import io.netty.resolver.dns.DnsNameResolverTimeoutException;
import io.netty.resolver.dns.DnsServerAddressStreamProvider;
import io.netty.resolver.dns.DnsServerAddresses;
import io.netty.util.concurrent.DefaultEventExecutor;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The egress resolver against a name resolver this test scripts: no DNS server, no network. Every address a
 * name resolves to is vetted, and only vetted addresses are handed on.
 */
class VettingResolverGroupTest {

    private static final DnsServerAddressStreamProvider NO_SERVER =
            name -> DnsServerAddresses.singleton(new InetSocketAddress(InetAddress.getLoopbackAddress(), 53)).stream();

    /** What the scripted resolver does per name; a name without a script never answers. */
    private final Map<String, Consumer<Promise<List<InetSocketAddress>>>> script = new ConcurrentHashMap<>();

    private final Map<String, Promise<List<InetSocketAddress>>> asked = new ConcurrentHashMap<>();
    private final AtomicInteger lookups = new AtomicInteger();
    private final AtomicBoolean dnsClosed = new AtomicBoolean();
    private final EventLoop loop = new DefaultEventLoop();

    private final DnsAddressResolverGroup dns = new DnsAddressResolverGroup(NioDatagramChannel.class, NO_SERVER) {
        @Override
        protected AddressResolver<InetSocketAddress> newResolver(
                EventLoop eventLoop,
                ChannelFactory<? extends DatagramChannel> channelFactory,
                DnsServerAddressStreamProvider servers) {
            return new AbstractAddressResolver<>(eventLoop, InetSocketAddress.class) {
                @Override
                protected boolean doIsResolved(InetSocketAddress address) {
                    return !address.isUnresolved();
                }

                @Override
                protected void doResolve(InetSocketAddress address, Promise<InetSocketAddress> promise) {
                    promise.setFailure(new AssertionError("the vetting resolver must ask for all addresses"));
                }

                @Override
                protected void doResolveAll(InetSocketAddress address, Promise<List<InetSocketAddress>> promise) {
                    lookups.incrementAndGet();
                    asked.put(address.getHostString(), promise);
                    Consumer<Promise<List<InetSocketAddress>>> answer = script.get(address.getHostString());
                    if (answer != null) {
                        answer.accept(promise);
                    }
                }
            };
        }

        @Override
        public void close() {
            dnsClosed.set(true);
            super.close();
        }
    };

    @AfterEach
    void stop() throws Exception {
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS);
    }

    private VettingResolverGroup group(List<AllowedRange> allowed, Duration timeout, int maxPending) {
        return new VettingResolverGroup(
                new SsrfGuard(allowed, List.of(), new OwnAddresses()), dns, timeout, maxPending);
    }

    private VettingResolverGroup group() {
        return group(List.of(), Duration.ofSeconds(30), 10);
    }

    private void answers(String name, String... addresses) {
        script.put(name, p -> {
            try {
                List<InetSocketAddress> out = new ArrayList<>();
                for (String a : addresses) {
                    out.add(new InetSocketAddress(InetAddress.getByName(a), 53));
                }
                p.setSuccess(out);
            } catch (UnknownHostException e) {
                p.setFailure(e);
            }
        });
    }

    private static <T> T await(Future<T> future) throws Exception {
        assertThat(future.await(10, TimeUnit.SECONDS)).as("completed").isTrue();
        if (!future.isSuccess()) {
            throw (Exception) future.cause();
        }
        return future.getNow();
    }

    private static Throwable failure(Future<?> future) throws Exception {
        assertThat(future.await(10, TimeUnit.SECONDS)).as("completed").isTrue();
        assertThat(future.isSuccess()).as("failed").isFalse();
        return future.cause();
    }

    private static InetSocketAddress unresolved(String host, int port) {
        return InetSocketAddress.createUnresolved(host, port);
    }

    @Test
    void handsOnEveryVettedAddressOfANameWithTheRequestedPort() throws Exception {
        answers("hook.test", "93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c");
        AddressResolver<InetSocketAddress> resolver = group().getResolver(loop);
        assertThat(await(resolver.resolveAll(unresolved("hook.test", 8443))))
                .containsExactly(
                        new InetSocketAddress(InetAddress.getByName("93.184.215.14"), 8443),
                        new InetSocketAddress(InetAddress.getByName("2606:2800:21f:cb07:6820:80da:af6b:8b2c"), 8443));
        assertThat(await(resolver.resolve(unresolved("hook.test", 443))))
                .isEqualTo(new InetSocketAddress(InetAddress.getByName("93.184.215.14"), 443));
    }

    @Test
    void refusesANameWhenAnyOfItsAddressesIsDenied() throws Exception {
        answers("rebind.test", "93.184.215.14", "127.0.0.1");
        AddressResolver<InetSocketAddress> resolver = group().getResolver(loop);
        assertThat(failure(resolver.resolveAll(unresolved("rebind.test", 80))))
                .isInstanceOfSatisfying(
                        TargetDeniedException.class, e -> assertThat(e.reason()).isEqualTo(DenialReason.DENIED_RANGE));
        assertThat(failure(resolver.resolve(unresolved("rebind.test", 80)))).isInstanceOf(TargetDeniedException.class);
    }

    @Test
    void vetsLiteralsWithoutAnyLookup() throws Exception {
        AddressResolver<InetSocketAddress> resolver = group(
                        List.of(AllowedRange.parse("10.0.0.0/8")), Duration.ofSeconds(30), 10)
                .getResolver(loop);
        assertThat(await(resolver.resolveAll(unresolved("10.1.2.3", 80))))
                .containsExactly(new InetSocketAddress(InetAddress.getByName("10.1.2.3"), 80));
        assertThat(failure(resolver.resolveAll(unresolved("0x7f000001", 80))))
                .isInstanceOfSatisfying(
                        TargetDeniedException.class, e -> assertThat(e.reason()).isEqualTo(DenialReason.DENIED_RANGE));
        assertThat(failure(resolver.resolveAll(unresolved("1.2.3.999", 80))))
                .isInstanceOfSatisfying(
                        TargetDeniedException.class, e -> assertThat(e.reason()).isEqualTo(DenialReason.INVALID_HOST));
        assertThat(lookups).hasValue(0);
    }

    @Test
    void aNameThatDoesNotExistIsUnresolvable() throws Exception {
        script.put("nx.test", p -> p.setFailure(new UnknownHostException("nx.test")));
        assertThat(failure(group().getResolver(loop).resolveAll(unresolved("nx.test", 80))))
                .isInstanceOfSatisfying(
                        TargetDeniedException.class, e -> assertThat(e.reason()).isEqualTo(DenialReason.UNRESOLVABLE));
    }

    @Test
    void silentServersAndResolverErrorsAreDnsFailures() throws Exception {
        DnsNameResolverTimeoutException silent = new DnsNameResolverTimeoutException(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 53),
                new DefaultDnsQuestion("slow.test", DnsRecordType.A),
                "timeout");
        script.put("slow.test", p -> p.setFailure(new UnknownHostException("slow.test").initCause(silent)));
        script.put("broken.test", p -> p.setFailure(new IOException("socket closed")));
        AddressResolver<InetSocketAddress> resolver = group().getResolver(loop);
        assertThat(failure(resolver.resolveAll(unresolved("slow.test", 80))))
                .isInstanceOf(DnsFailedException.class)
                .hasMessageContaining("did not answer");
        assertThat(failure(resolver.resolveAll(unresolved("broken.test", 80))))
                .isInstanceOf(DnsFailedException.class)
                .hasMessageContaining("socket closed");
    }

    @Test
    void endsAResolutionAtTheTimeoutAndCancelsTheLookup() throws Exception {
        AddressResolver<InetSocketAddress> resolver =
                group(List.of(), Duration.ofMillis(100), 1).getResolver(loop);
        assertThat(failure(resolver.resolveAll(unresolved("never.test", 80))))
                .isInstanceOf(DnsFailedException.class)
                .hasMessageContaining("never.test")
                .hasMessageContaining("within");
        Awaitility.await().until(() -> asked.get("never.test").isCancelled());
        // The cancelled lookup released its place: the next attempt waits again instead of being refused as busy.
        answers("never.test", "93.184.215.14");
        assertThat(await(resolver.resolveAll(unresolved("never.test", 80)))).hasSize(1);
    }

    @Test
    void refusesMoreWaitersOnOneNameThanTheCapAndFreesThePlacesWhenTheAnswerComes() throws Exception {
        AddressResolver<InetSocketAddress> resolver =
                group(List.of(), Duration.ofSeconds(30), 2).getResolver(loop);
        Future<List<InetSocketAddress>> first = resolver.resolveAll(unresolved("wait.test", 80));
        Future<List<InetSocketAddress>> second = resolver.resolveAll(unresolved("WAIT.test", 80));
        assertThat(failure(resolver.resolveAll(unresolved("wait.test", 80))))
                .isInstanceOf(DnsFailedException.class)
                .hasMessageContaining("2 deliveries");
        answers("other.test", "93.184.215.14");
        assertThat(await(resolver.resolveAll(unresolved("other.test", 80)))).hasSize(1);
        List<InetSocketAddress> answer = List.of(new InetSocketAddress(InetAddress.getByName("93.184.215.14"), 53));
        loop.submit(() -> asked.get("wait.test").setSuccess(answer)).sync();
        loop.submit(() -> asked.get("WAIT.test").setSuccess(answer)).sync();
        assertThat(await(first)).hasSize(1);
        assertThat(await(second)).hasSize(1);
        answers("wait.test", "93.184.215.14");
        assertThat(await(resolver.resolveAll(unresolved("wait.test", 80)))).hasSize(1);
        assertThat(await(resolver.resolveAll(unresolved("wait.test", 80)))).hasSize(1);
    }

    @Test
    void passesAnAlreadyResolvedAddressThrough() throws Exception {
        InetSocketAddress resolved = new InetSocketAddress(InetAddress.getByName("93.184.215.14"), 80);
        assertThat(await(group().getResolver(loop).resolve(resolved))).isSameAs(resolved);
        assertThat(lookups).hasValue(0);
    }

    @Test
    void runsOnlyOnAnEventLoopAndClosesTheDnsResolversWithIt() throws Exception {
        VettingResolverGroup group = group();
        EventExecutor notALoop = new DefaultEventExecutor();
        try {
            assertThatThrownBy(() -> group.getResolver(notALoop)).isInstanceOf(IllegalStateException.class);
        } finally {
            notALoop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
        group.getResolver(loop);
        group.close();
        assertThat(dnsClosed).isTrue();
    }

    @Test
    void aRefusedWaiterDoesNotKeepAPlace() throws Exception {
        AddressResolver<InetSocketAddress> resolver =
                group(List.of(), Duration.ofSeconds(30), 1).getResolver(loop);
        Future<List<InetSocketAddress>> first = resolver.resolveAll(unresolved("one.test", 80));
        assertThat(failure(resolver.resolveAll(unresolved("ONE.test", 80)))).isInstanceOf(DnsFailedException.class);
        List<InetSocketAddress> answer = List.of(new InetSocketAddress(InetAddress.getByName("93.184.215.14"), 53));
        loop.submit(() -> asked.get("one.test").setSuccess(answer)).sync();
        assertThat(await(first)).hasSize(1);
        Future<List<InetSocketAddress>> next = resolver.resolveAll(unresolved("One.test", 80));
        assertThat(asked).containsKey("One.test");
        loop.submit(() -> asked.get("One.test").setSuccess(answer)).sync();
        assertThat(await(next)).hasSize(1);
    }

    @Test
    void aPlaceFreedByOneAnswerIsTakenByExactlyOneNewWaiter() throws Exception {
        AddressResolver<InetSocketAddress> resolver =
                group(List.of(), Duration.ofSeconds(30), 2).getResolver(loop);
        Future<List<InetSocketAddress>> first = resolver.resolveAll(unresolved("two.test", 80));
        resolver.resolveAll(unresolved("TWO.test", 80));
        List<InetSocketAddress> answer = List.of(new InetSocketAddress(InetAddress.getByName("93.184.215.14"), 53));
        loop.submit(() -> asked.get("two.test").setSuccess(answer)).sync();
        assertThat(await(first)).hasSize(1);
        resolver.resolveAll(unresolved("Two.test", 80));
        assertThat(asked).containsKey("Two.test");
        assertThat(failure(resolver.resolveAll(unresolved("tWo.test", 80))))
                .isInstanceOf(DnsFailedException.class)
                .hasMessageContaining("2 deliveries");
        assertThat(asked).doesNotContainKey("tWo.test");
    }

    @Test
    void closingTheGroupReleasesItsResolvers() {
        VettingResolverGroup group = group();
        AddressResolver<InetSocketAddress> before = group.getResolver(loop);
        assertThat(group.getResolver(loop)).isSameAs(before);
        group.close();
        assertThat(group.getResolver(loop)).isNotSameAs(before);
    }
}
