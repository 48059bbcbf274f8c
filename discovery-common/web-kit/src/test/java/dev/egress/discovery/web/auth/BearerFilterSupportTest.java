package dev.egress.discovery.web.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.discovery.web.problem.Problem;
import dev.egress.discovery.web.problem.ProblemType;
import dev.egress.discovery.web.problem.TargetContact;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.PathContainer;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/** The part both services' bearer filters share, on real exchanges without a server. */
class BearerFilterSupportTest {

    private final BearerAnswers answers = new BearerAnswers("a valid bearer token is required", TargetContact.NONE);
    private final List<String> authorised = new ArrayList<>();
    private final List<ServerWebExchange> passedOn = new ArrayList<>();
    private final WebFilterChain chain = exchange -> {
        passedOn.add(exchange);
        return Mono.empty();
    };
    private final BearerFilterSupport filter = new BearerFilterSupport(answers) {
        @Override
        protected Mono<Void> authorise(
                ServerWebExchange exchange, WebFilterChain next, String path, List<String> segments) {
            authorised.add(path + " " + segments);
            return answers().unauthorized(exchange.getResponse());
        }
    };

    private MockServerWebExchange run(String path) {
        // From a URI, not a template: the path is sent exactly as written, escapes included.
        MockServerWebExchange exchange =
                MockServerWebExchange.from(MockServerHttpRequest.method(HttpMethod.GET, URI.create(path)));
        filter.filter(exchange, chain).block();
        return exchange;
    }

    @Test
    void refusesANonCanonicalPathBeforeAnyDoorWithA400NamingWhy() {
        MockServerWebExchange exchange = run("/internal;x/v1/egress");
        assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(exchange.getResponse().getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON);
        assertThat(exchange.getResponse().getBodyAsString().block())
                .contains(ProblemType.TYPE_PREFIX + "invalid-request")
                .contains("non-canonical request path: path parameter (';')")
                .contains("\"targetContacted\":false");
        assertThat(authorised).isEmpty();
        assertThat(passedOn).isEmpty();
    }

    @Test
    void letsTheProbesThroughWithoutAToken() {
        for (String probe : BearerAnswers.PROBE_PATHS) {
            MockServerWebExchange exchange = run(probe);
            assertThat(exchange.getResponse().getStatusCode()).isNull();
        }
        assertThat(passedOn).hasSize(3);
        assertThat(authorised).isEmpty();
    }

    @Test
    void handsEveryOtherPathToTheServiceDoorWithItsDecodedSegments() {
        MockServerWebExchange exchange = run("/ops/v1/ips/%3A%3A1");
        assertThat(authorised).containsExactly("/ops/v1/ips/%3A%3A1 [ops, v1, ips, ::1]");
        assertThat(passedOn).isEmpty();
        assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.UNAUTHORIZED);
        assertThat(exchange.getResponse().getHeaders().getFirst(HttpHeaders.WWW_AUTHENTICATE))
                .isEqualTo("Bearer");
        assertThat(exchange.getResponse().getBodyAsString().block())
                .contains(ProblemType.TYPE_PREFIX + "unauthorized")
                .contains("a valid bearer token is required");
    }

    @Test
    void runsBeforeTheFrameworksOwnFilters() {
        assertThat(filter.getOrder()).isEqualTo(Ordered.HIGHEST_PRECEDENCE + 10);
    }

    @Test
    void addsTheServicesTargetContactOnlyWhereAProblemLeavesItUnstated() {
        MockServerWebExchange unstated = MockServerWebExchange.from(MockServerHttpRequest.get("/"));
        answers.refuse(unstated.getResponse(), Problem.of(ProblemType.INVALID_REQUEST, "x"))
                .block();
        assertThat(unstated.getResponse().getBodyAsString().block()).contains("\"targetContacted\":false");

        MockServerWebExchange stated = MockServerWebExchange.from(MockServerHttpRequest.get("/"));
        answers.refuse(
                        stated.getResponse(),
                        Problem.of(ProblemType.INVALID_REQUEST, "x").withTargetContact(TargetContact.POSSIBLE))
                .block();
        assertThat(stated.getResponse().getBodyAsString().block()).contains("\"targetContacted\":true");
    }

    @Test
    void segmentsAreTheDecodedPathElementsWithoutSeparators() {
        assertThat(BearerAnswers.segments(PathContainer.parsePath("/a/b%20c/"))).containsExactly("a", "b c");
        assertThat(BearerAnswers.segments(PathContainer.parsePath("/"))).isEmpty();
    }
}
