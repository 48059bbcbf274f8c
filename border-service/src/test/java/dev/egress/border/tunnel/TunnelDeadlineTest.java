package dev.egress.border.tunnel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.border.testing.BorderTestProperties;
import dev.egress.border.testing.LocalBorderTest;
import dev.egress.border.testing.LocalDnsServer;
import dev.egress.border.testing.Tokens;
import dev.egress.discovery.web.forward.ForwardDeadline;
import dev.egress.discovery.web.forward.TunnelCall;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * A tunnel's connect ends by App's deadline with name resolution included: a name whose DNS server never answers
 * is answered as the target's timeout, not contacted, before App gives up (and would count the Border at fault).
 */
@LocalBorderTest({
    "egress.border.id=border-tunnel-deadline",
    "egress.border.ips=127.0.0.5",
    BorderTestProperties.LOCAL,
    // DNS alone may take far longer than App waits.
    "egress.dns.query-timeout=10s",
    "egress.dns.resolve-timeout=20s",
    "egress.limits.connect-timeout=20s"
})
class TunnelDeadlineTest {

    static final LocalDnsServer dns = dns();

    @Autowired
    WebTestClient web;

    static LocalDnsServer dns() {
        try {
            return LocalDnsServer.start(Map.of());
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
        dns.close();
    }

    @Test
    void answersASilentNameAsTheTargetsTimeoutByAppsDeadline() {
        // The first call warms the client and the server up, so the timed one arrives well before its deadline.
        tunnel("127.0.0.9").exchange().expectStatus().isNotFound();

        long started = System.nanoTime();
        tunnel("127.0.0.5")
                .header(ForwardDeadline.HEADER, Long.toString(System.currentTimeMillis() + 3_000))
                .exchange()
                .expectStatus()
                .isEqualTo(504)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:target-timeout")
                .jsonPath("$.targetContacted")
                .isEqualTo(false);

        // Well before the DNS server's query timeout (10 s): the deadline ended the connect.
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(8));
    }

    private WebTestClient.RequestBodySpec tunnel(String sourceIp) {
        return web.post()
                .uri(TunnelCall.PATH)
                .header("Authorization", "Bearer " + Tokens.INTERNAL)
                .contentType(MediaType.APPLICATION_OCTET_STREAM)
                .header(TunnelCall.SOURCE_IP_HEADER, sourceIp)
                .header(TunnelCall.TARGET_HEADER, "hook." + LocalDnsServer.SILENT_ZONE + ":443");
    }
}
