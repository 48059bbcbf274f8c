package dev.egress.border.ssrf;

import dev.egress.border.testing.BorderTestProperties;
import dev.egress.border.testing.LocalBorderTest;
import dev.egress.border.testing.Tokens;
import dev.egress.discovery.web.forward.ForwardRequest;
import java.util.Map;
import java.util.stream.Stream;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/** The SSRF table through the real endpoint, with the production deny list and no allowed ranges. */
@LocalBorderTest({"egress.border.id=border-ssrf", "egress.border.ips=127.0.0.5", BorderTestProperties.LOCAL})
class SsrfEndpointTest {

    @Autowired
    WebTestClient web;

    static Stream<Arguments> deniedWithoutDns() {
        // A name that needs a real DNS query is left to the unit table: tests send nothing off loopback.
        return SsrfTargets.denied().filter(a -> !"UNRESOLVABLE".equals(a.get()[1]));
    }

    @Autowired
    SsrfGuard guard;

    @ParameterizedTest(name = "{0} -> 403 {1}")
    @MethodSource("deniedWithoutDns")
    void answersTargetDeniedWithTheReasonAndWithoutContactingTheTarget(String url, String reason) {
        refusedBeforeAnyLookup(guard, url);
        web.post()
                .uri("/internal/v1/egress")
                .header("Authorization", "Bearer " + Tokens.INTERNAL)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(new ForwardRequest("d", "127.0.0.5", url, "POST", Map.of(), "{}"))
                .exchange()
                .expectStatus()
                .isForbidden()
                .expectHeader()
                .contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:target-denied")
                .jsonPath("$.status")
                .isEqualTo(403)
                .jsonPath("$.reason")
                .isEqualTo(reason)
                .jsonPath("$.targetContacted")
                .isEqualTo(false);
    }

    /**
     * The safety catch of these tables: before a URL goes through the endpoint, the very guard the
     * endpoint uses must refuse it lexically, or its host must be a name that resolves locally
     * ({@code localhost}). A guard that let a public or private literal through fails here, before
     * anything could connect to it.
     */
    static void refusedBeforeAnyLookup(SsrfGuard guard, String url) {
        try {
            SsrfGuard.VettedUrl vetted = guard.vetUrl(url);
            Assertions.assertThat(vetted.literal())
                    .as("%s passed the guard's lexical check; refusing to send it anywhere", url)
                    .isNull();
            Assertions.assertThat(vetted.host())
                    .as("only local names may reach the resolver")
                    .isEqualTo("localhost");
        } catch (TargetDeniedException expected) {
            // Refused without any lookup or connection.
        }
    }
}
