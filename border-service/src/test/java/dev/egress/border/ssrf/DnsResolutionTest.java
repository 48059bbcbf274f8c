package dev.egress.border.ssrf;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.border.testing.BorderTestProperties;
import dev.egress.border.testing.LocalBorderTest;
import dev.egress.border.testing.LocalDnsServer;
import dev.egress.border.testing.Tokens;
import dev.egress.discovery.web.forward.ForwardRequest;
import dev.egress.discovery.web.testing.RecordingSink;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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

/**
 * Name resolution on the egress path, against a DNS server on 127.0.0.1 (never the machine's own):
 * non-blocking, bounded in time, and every resolved address vetted before any connect.
 */
@LocalBorderTest({
    "egress.border.id=border-dns",
    "egress.border.ips=127.0.0.2",
    BorderTestProperties.LOCAL,
    BorderTestProperties.LOOPBACK_TARGETS,
    "egress.limits.max-concurrency-per-ip=200",
    "egress.dns.query-timeout=1s",
    "egress.dns.resolve-timeout=4s",
    "egress.dns.max-queries-per-resolve=2"
})
class DnsResolutionTest {

    static final RecordingSink sink = start();
    static final LocalDnsServer dns = dns();

    @Autowired
    WebTestClient web;

    static RecordingSink start() {
        try {
            return RecordingSink.start();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static LocalDnsServer dns() {
        try {
            return LocalDnsServer.start(Map.of(
                    "hook.test", InetAddress.getByAddress(new byte[] {127, 0, 0, 1}),
                    // A name answering with a private address: vetted and refused, never connected to.
                    "private.test", InetAddress.getByAddress(new byte[] {10, 0, 0, 1})));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @DynamicPropertySource
    static void dnsServer(DynamicPropertyRegistry registry) {
        registry.add("egress.dns.servers", dns::address);
    }

    @AfterAll
    static void stop() {
        sink.close();
        dns.close();
    }

    private WebTestClient.ResponseSpec forward(String url) {
        return web.post()
                .uri("/internal/v1/egress")
                .header("Authorization", "Bearer " + Tokens.INTERNAL)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(new ForwardRequest("d", "127.0.0.2", url, "POST", Map.of(), "{}"))
                .exchange();
    }

    @Test
    void deliversToANameThatResolvesToAnAllowedAddress() {
        forward("http://hook.test:" + sink.port() + "/named")
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult();
        assertThat(sink.received()).anySatisfy(r -> assertThat(r.path()).isEqualTo("/named"));
    }

    @Test
    void refusesANameThatResolvesToADeniedAddress() {
        forward("http://private.test:" + sink.port() + "/x")
                .expectStatus()
                .isForbidden()
                .expectBody()
                .jsonPath("$.reason")
                .isEqualTo("DENIED_RANGE")
                .jsonPath("$.targetContacted")
                .isEqualTo(false);
    }

    @Test
    void refusesANameThatDoesNotExist() {
        forward("http://nowhere.test:" + sink.port() + "/x")
                .expectStatus()
                .isForbidden()
                .expectBody()
                .jsonPath("$.reason")
                .isEqualTo("UNRESOLVABLE");
    }

    @Test
    void aDnsServerThatNeverAnswersStallsOnlyTheDeliveriesThatNeedItAndThoseFailWithinTheTimeout() {
        // 100 deliveries to names whose DNS server never answers, all at once, more than the bounded
        // elastic pool's threads per core would have absorbed before.
        List<Mono<EntityExchangeResult<byte[]>>> stalled = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            String url = "http://n" + i + "." + LocalDnsServer.SILENT_ZONE + ":" + sink.port() + "/stalled";
            stalled.add(Mono.fromCallable(() -> forward(url).expectBody().returnResult())
                    .subscribeOn(Schedulers.boundedElastic()));
        }
        var pending = Mono.zip(stalled, results -> results).toFuture();

        // Meanwhile an IP-literal delivery and a named one that does get answers go through.
        forward("http://127.0.0.1:" + sink.port() + "/literal")
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult();
        forward("http://hook.test:" + sink.port() + "/answered")
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult();
        assertThat(pending)
                .as("the stalled deliveries are still waiting on DNS")
                .isNotDone();

        Object[] results = pending.orTimeout(30, TimeUnit.SECONDS).join();
        for (Object r : results) {
            @SuppressWarnings("unchecked")
            EntityExchangeResult<byte[]> result = (EntityExchangeResult<byte[]>) r;
            assertThat(result.getStatus().value()).isEqualTo(502);
            String body = new String(result.getResponseBodyContent());
            assertThat(body).contains("urn:egress:problem:dns-failed").contains("\"targetContacted\":false");
        }
        assertThat(dns.unanswered()).isPositive();
        assertThat(sink.received()).noneSatisfy(r -> assertThat(r.path()).isEqualTo("/stalled"));
    }

    @Test
    void resolveTimeoutBoundsOneDelivery() {
        long started = System.nanoTime();
        forward("http://one." + LocalDnsServer.SILENT_ZONE + ":" + sink.port() + "/x")
                .expectStatus()
                .isEqualTo(502)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:dns-failed");
        // Not a speed assertion: an upper bound that a resolver without a deadline would never meet.
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(20));
    }
}
