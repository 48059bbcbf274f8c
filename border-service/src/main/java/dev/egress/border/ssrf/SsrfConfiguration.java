package dev.egress.border.ssrf;

import io.netty.channel.socket.DatagramChannel;
import io.netty.resolver.dns.DnsAddressResolverGroup;
import io.netty.resolver.dns.DnsNameResolverBuilder;
import io.netty.resolver.dns.SequentialDnsServerAddressStreamProvider;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import reactor.netty.http.HttpResources;
import reactor.netty.resources.LoopResources;

/** Wires the SSRF guard and the vetting DNS resolver from {@link SsrfProperties} and {@link DnsProperties}. */
@Configuration(proxyBeanMethods = false)
class SsrfConfiguration {

    private static final Logger log = LoggerFactory.getLogger(SsrfConfiguration.class);

    @Bean
    OwnAddresses ownAddresses() {
        return new OwnAddresses();
    }

    @Bean
    ApplicationListener<WebServerInitializedEvent> ownPortListener(OwnAddresses own) {
        return event -> own.addListeningPort(event.getWebServer().getPort());
    }

    @Bean
    SsrfGuard ssrfGuard(SsrfProperties ssrf, OwnAddresses own) {
        List<AllowedRange> allowed = entries(ssrf.allowedRanges(), "egress.ssrf.allowed-ranges", AllowedRange::parse);
        List<Cidr> denied = entries(ssrf.deniedRanges(), "egress.ssrf.denied-ranges", Cidr::parse);
        if (allowed.isEmpty()) {
            log.info("SSRF guard: full deny list, no allowed ranges");
        } else {
            log.warn("SSRF guard: ranges exempt from the deny list (egress.ssrf.allowed-ranges): {}", allowed);
        }
        if (!denied.isEmpty()) {
            log.info(
                    "SSRF guard: operator ranges denied on top of the deny list (egress.ssrf.denied-ranges): {}",
                    denied);
        }
        return new SsrfGuard(allowed, denied, own);
    }

    @Bean(destroyMethod = "close")
    VettingResolverGroup vettingResolverGroup(SsrfGuard guard, DnsProperties dns) {
        List<InetSocketAddress> servers = entries(dns.servers(), "egress.dns.servers", DnsServers::parse);
        // The datagram channel type must match the event loops the egress clients run on (epoll or NIO).
        Class<? extends DatagramChannel> channelType = HttpResources.get()
                .onChannelClass(DatagramChannel.class, HttpResources.get().onClient(LoopResources.DEFAULT_NATIVE));
        DnsNameResolverBuilder builder = new DnsNameResolverBuilder()
                .datagramChannelType(channelType)
                .queryTimeoutMillis(dns.queryTimeout().toMillis())
                .maxQueriesPerResolve(dns.maxQueriesPerResolve())
                // Concurrent lookups of one name share one query.
                .consolidateCacheSize(4096);
        if (!servers.isEmpty()) {
            builder.nameServerProvider(new SequentialDnsServerAddressStreamProvider(servers));
            log.info(
                    "Egress DNS: servers {} (egress.dns.servers), query timeout {}, resolve timeout {}",
                    servers,
                    dns.queryTimeout(),
                    dns.resolveTimeout());
        }
        return new VettingResolverGroup(
                guard, new DnsAddressResolverGroup(builder), dns.resolveTimeout(), dns.maxPendingPerName());
    }

    /** Parses every non-blank entry; a bad one stops startup naming the property and the entry. */
    private static <T> List<T> entries(List<String> raw, String property, Function<String, T> parser) {
        List<T> out = new ArrayList<>();
        for (String entry : raw) {
            if (entry == null || entry.isBlank()) {
                continue;
            }
            try {
                out.add(parser.apply(entry.strip()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "%s: invalid entry '%s': %s".formatted(property, entry.strip(), e.getMessage()), e);
            }
        }
        return List.copyOf(out);
    }
}
