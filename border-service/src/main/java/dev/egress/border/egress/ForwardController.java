package dev.egress.border.egress;

import dev.egress.border.InvalidRequestException;
import dev.egress.border.trust.ClientCertificates;
import dev.egress.discovery.forward.BorderPaths;
import dev.egress.discovery.forward.ForwardDeadline;
import dev.egress.discovery.forward.ForwardRequest;
import dev.egress.discovery.forward.ForwardResponse;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * App's forward call, {@code POST /internal/v1/egress}: Bearer internal token (checked by the filter)
 * and, with trust configured, an App client certificate (checked here, on the matched route). The
 * attempt's deadline travels in the {@value ForwardDeadline#HEADER} header (absent from an older App).
 */
@RestController
class ForwardController {

    private final EgressService egress;
    private final ClientCertificates clients;

    ForwardController(EgressService egress, ClientCertificates clients) {
        this.egress = egress;
        this.clients = clients;
    }

    @PostMapping(
            path = BorderPaths.EGRESS,
            consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<ForwardResponse> forward(@RequestBody ForwardRequest request, ServerWebExchange exchange) {
        clients.requireApp(exchange);
        ForwardDeadline deadline;
        try {
            deadline = ForwardDeadline.parse(exchange.getRequest().getHeaders().getFirst(ForwardDeadline.HEADER));
        } catch (IllegalArgumentException e) {
            return Mono.error(new InvalidRequestException(e.getMessage()));
        }
        return egress.forward(request, deadline);
    }
}
