package dev.egress.border.egress;

import dev.egress.discovery.forward.ForwardRequest;
import dev.egress.discovery.forward.ForwardResponse;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/** App's forward call, {@code POST /internal/v1/egress} (Bearer internal token, checked by the filter). */
@RestController
class ForwardController {

    private final EgressService egress;

    ForwardController(EgressService egress) {
        this.egress = egress;
    }

    @PostMapping(path = "/internal/v1/egress", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<ForwardResponse> forward(@RequestBody ForwardRequest request) {
        return egress.forward(request);
    }
}
