package dev.egress.border.ssrf;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.border.testing.BorderTestProperties;
import dev.egress.border.testing.LocalBorderTest;
import dev.egress.border.testing.LocalDnsServer;
import dev.egress.border.testing.Tokens;
import dev.egress.discovery.web.forward.ForwardRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/** At most {@code egress.dns.max-pending-per-name} deliveries wait on one name; the rest fail at once. */
@LocalBorderTest({
    "egress.border.id=border-dns-cap",
    "egress.border.ips=127.0.0.2",
    BorderTestProperties.LOCAL,
    BorderTestProperties.LOOPBACK_TARGETS,
    "egress.dns.query-timeout=1s",
    "egress.dns.resolve-timeout=6s",
    "egress.dns.max-pending-per-name=2"
})
class DnsPendingLimitTest {

    static final LocalDnsServer dns = DnsResolutionTest.dns();

    @Autowired
    WebTestClient web;

    @DynamicPropertySource
    static void dnsServer(DynamicPropertyRegistry registry) {
        registry.add("egress.dns.servers", dns::address);
    }

    @AfterAll
    static void stop() {
        dns.close();
    }

    @Test
    void refusesMoreWaitersOnOneNameThanTheCapAtOnce() {
        List<Mono<EntityExchangeResult<byte[]>>> calls = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            calls.add(Mono.fromCallable(() -> web.post()
                            .uri("/internal/v1/egress")
                            .header("Authorization", "Bearer " + Tokens.INTERNAL)
                            .contentType(MediaType.APPLICATION_JSON)
                            .bodyValue(new ForwardRequest(
                                    "d",
                                    "127.0.0.2",
                                    "http://same." + LocalDnsServer.SILENT_ZONE + ":8443/",
                                    "POST",
                                    Map.of(),
                                    "{}"))
                            .exchange()
                            .expectBody()
                            .returnResult())
                    .subscribeOn(Schedulers.boundedElastic()));
        }
        List<String> bodies = Mono.zip(calls, results -> {
                    List<String> out = new ArrayList<>();
                    for (Object r : results) {
                        @SuppressWarnings("unchecked")
                        EntityExchangeResult<byte[]> result = (EntityExchangeResult<byte[]>) r;
                        assertThat(result.getStatus().value()).isEqualTo(502);
                        out.add(new String(result.getResponseBodyContent()));
                    }
                    return out;
                })
                .block();
        assertThat(bodies).allSatisfy(b -> assertThat(b).contains("urn:egress:problem:dns-failed"));
        assertThat(bodies.stream().filter(b -> b.contains("already wait"))).hasSizeGreaterThanOrEqualTo(1);
        // The others waited for the (silent) server until their queries or the deadline ran out.
        assertThat(bodies.stream().filter(b -> !b.contains("already wait"))).isNotEmpty();
    }
}
