package dev.egress.border.tunnel;

import dev.egress.border.ssrf.SsrfGuard;
import dev.egress.border.ssrf.SsrfTargets;
import dev.egress.border.ssrf.TargetDeniedException;
import dev.egress.border.testing.BorderTestProperties;
import dev.egress.border.testing.LocalBorderTest;
import dev.egress.border.testing.Tokens;
import dev.egress.discovery.web.forward.ForwardDeadline;
import dev.egress.discovery.web.forward.TunnelCall;
import java.net.URI;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * The tunnel endpoint's refusals through the real server: the SSRF corpus written as {@code host:port} (each
 * vetted by the guard first, so nothing here can connect off loopback), the door (internal token), and the
 * checks before any connection (source IP hosted, header forms, late deadline).
 */
@LocalBorderTest({"egress.border.id=border-tunnel", "egress.border.ips=127.0.0.5", BorderTestProperties.LOCAL})
class TunnelEndpointTest {

    /** URL-shape reasons that have no {@code host:port} form. */
    private static final Set<String> URL_ONLY =
            Set.of("SCHEME_NOT_ALLOWED", "USERINFO_NOT_ALLOWED", "INVALID_URL", "UNRESOLVABLE", "INVALID_PORT");

    @Autowired
    WebTestClient web;

    @Autowired
    SsrfGuard guard;

    /** The corpus's authorities that are a host and a port as App and the Border read one: the SSRF guard's 403. */
    static Stream<Arguments> deniedAuthorities() {
        return corpusAuthorities().filter(a -> isTarget((String) a.get()[1]));
    }

    /** The corpus's other spellings (short or octal IPv4, a bare number, a trailing dot): 400 before the guard. */
    static Stream<Arguments> unreadableAuthorities() {
        return corpusAuthorities().filter(a -> !isTarget((String) a.get()[1]));
    }

    private static boolean isTarget(String authority) {
        try {
            TunnelCall.parse(authority);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    @ParameterizedTest(name = "CONNECT {1} -> 400")
    @MethodSource("unreadableAuthorities")
    void refusesATargetThatIsNotAHostAndAPortBeforeAnyLookup(String url, String authority, String reason) {
        tunnel("127.0.0.5", authority)
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:invalid-request");
    }

    /** The corpus as CONNECT authorities: the URL's authority, with the scheme's port when it names none. */
    private static Stream<Arguments> corpusAuthorities() {
        return SsrfTargets.denied()
                .filter(a -> !URL_ONLY.contains((String) a.get()[1]))
                .map(a -> {
                    String url = (String) a.get()[0];
                    URI uri = URI.create(url.strip());
                    String authority = uri.getRawAuthority();
                    if (authority == null || authority.contains("@")) {
                        return null;
                    }
                    boolean hasPort = authority.startsWith("[")
                            ? authority.lastIndexOf(':') > authority.indexOf(']')
                            : authority.indexOf(':') >= 0;
                    String withPort = hasPort ? authority : authority + (url.startsWith("https") ? ":443" : ":80");
                    return Arguments.of(url, withPort, a.get()[1]);
                })
                .filter(a -> a != null);
    }

    @ParameterizedTest(name = "CONNECT {1} -> 403 {2}")
    @MethodSource("deniedAuthorities")
    void refusesADeniedTargetWithItsReasonBeforeAnyConnection(String url, String authority, String reason) {
        refusedBeforeAnyLookup(url, authority);
        tunnel("127.0.0.5", authority)
                .exchange()
                .expectStatus()
                .isForbidden()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:target-denied")
                .jsonPath("$.reason")
                .isEqualTo(reason)
                .jsonPath("$.targetContacted")
                .isEqualTo(false);
    }

    @Test
    void refusesAPortWebhooksDoNotUseUnlessTheOperatorAddedItBeforeAnyLookup() {
        // SMTP from a tenant's IP: 443 and 80 by default; this context adds 1024-65535 (its loopback targets).
        for (String authority : List.of("127.0.0.1:25", "mail.example.com:25", "example.com:22")) {
            tunnel("127.0.0.5", authority)
                    .exchange()
                    .expectStatus()
                    .isForbidden()
                    .expectBody()
                    .jsonPath("$.type")
                    .isEqualTo("urn:egress:problem:target-denied")
                    .jsonPath("$.reason")
                    .isEqualTo("PORT_NOT_ALLOWED")
                    .jsonPath("$.targetContacted")
                    .isEqualTo(false);
        }
    }

    @Test
    void refusesWithoutTheInternalToken() {
        web.post()
                .uri(TunnelCall.PATH)
                .contentType(MediaType.APPLICATION_OCTET_STREAM)
                .header(TunnelCall.SOURCE_IP_HEADER, "127.0.0.5")
                .header(TunnelCall.TARGET_HEADER, "127.0.0.1:9")
                .exchange()
                .expectStatus()
                .isUnauthorized();
    }

    @Test
    void refusesASourceIpThisBorderDoesNotHostAsNotContacted() {
        tunnel("127.0.0.9", "127.0.0.1:9")
                .exchange()
                .expectStatus()
                .isNotFound()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:ip-not-hosted")
                .jsonPath("$.targetContacted")
                .isEqualTo(false);
    }

    @Test
    void refusesATargetWithoutAPortAsInvalid() {
        tunnel("127.0.0.5", "example.com")
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:invalid-request");
    }

    @Test
    void refusesACallPastItsDeadlineAsNotContacted() {
        tunnel("127.0.0.5", "127.0.0.1:9")
                .header(ForwardDeadline.HEADER, Long.toString(System.currentTimeMillis() - 1000))
                .exchange()
                .expectStatus()
                .isEqualTo(503)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:deadline-exceeded")
                .jsonPath("$.targetContacted")
                .isEqualTo(false);
    }

    private WebTestClient.RequestBodySpec tunnel(String sourceIp, String authority) {
        return web.post()
                .uri(TunnelCall.PATH)
                .header("Authorization", "Bearer " + Tokens.INTERNAL)
                .contentType(MediaType.APPLICATION_OCTET_STREAM)
                .header(TunnelCall.SOURCE_IP_HEADER, sourceIp)
                .header(TunnelCall.TARGET_HEADER, authority);
    }

    /** As the forward endpoint's table: the guard must refuse the target lexically before it goes anywhere. */
    private void refusedBeforeAnyLookup(String url, String authority) {
        try {
            SsrfGuard.VettedUrl vetted = guard.vetUrl("http://" + authority + "/");
            Assertions.assertThat(vetted.literal())
                    .as("%s (%s) passed the guard's lexical check; refusing to send it anywhere", authority, url)
                    .isNull();
            Assertions.assertThat(vetted.host())
                    .as("only local names may reach the resolver")
                    .isEqualTo("localhost");
        } catch (TargetDeniedException expected) {
            // Refused without any lookup or connection.
        }
    }
}
