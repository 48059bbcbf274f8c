package dev.egress.app.ops;

import dev.egress.app.fleet.BorderFleet;
import dev.egress.app.fleet.BorderHandle;
import dev.egress.app.fleet.BorderLink;
import dev.egress.app.fleet.LinkFailures;
import dev.egress.discovery.registry.Route;
import dev.egress.discovery.web.forward.BorderPaths;
import io.netty.buffer.Unpooled;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Asks a Border to set the status of one of its IPs ({@code PUT /internal/v1/ips/{ip}}), or to release it
 * ({@code PUT /internal/v1/ips/{ip}/release}), over the same pooled,
 * authenticated link as deliveries (the Border's handle in the {@link BorderFleet}). Never fails: a missing
 * answer is in the reply.
 */
final class IpStatusCall {

    /**
     * A Border's answer to an IP status change.
     *
     * @param status  the Border's HTTP status; 0 when there was no answer
     * @param body    the answer's body (JSON), empty without an answer
     * @param failure why there was no answer (connect failure, timeout), null when the Border answered
     */
    record Reply(int status, byte[] body, @Nullable String failure) {}

    private final BorderFleet fleet;

    IpStatusCall(BorderFleet fleet) {
        this.fleet = fleet;
    }

    /**
     * Sends the change.
     *
     * @param route   a route of the Border (its endpoint and id: the link checks that id, as for deliveries)
     * @param ip      the IP
     * @param body    the JSON body, e.g. {@code {"status":"DRAINING"}}
     * @param timeout how long to wait for the answer
     * @return the reply
     */
    Mono<Reply> send(Route route, String ip, byte[] body, Duration timeout) {
        return put(route, BorderPaths.ip(ip), body, timeout);
    }

    /**
     * Sends a release of one IP ({@code PUT /internal/v1/ips/{ip}/release}, an operator's move).
     *
     * @param route   a route of the Border
     * @param ip      the IP
     * @param body    the JSON body, e.g. {@code {"released":true}}
     * @param timeout how long to wait for the answer
     * @return the reply
     */
    Mono<Reply> sendRelease(Route route, String ip, byte[] body, Duration timeout) {
        return put(route, BorderPaths.ipRelease(ip), body, timeout);
    }

    private Mono<Reply> put(Route route, String path, byte[] body, Duration timeout) {
        return Mono.defer(() -> {
            if (fleet.unverifiable(route.endpoint()) != null) {
                return Mono.just(new Reply(0, new byte[0], "cannot verify the Border's endpoint " + route.endpoint()));
            }
            BorderHandle handle = fleet.handle(route);
            BorderLink link = handle == null ? null : handle.link();
            if (link == null) {
                return Mono.just(new Reply(0, new byte[0], "the Border left the snapshot"));
            }
            return link.http()
                    .put()
                    .uri(link.url(path))
                    .send(Mono.fromSupplier(() -> Unpooled.wrappedBuffer(body)))
                    .responseSingle((response, content) -> content.asByteArray()
                            .defaultIfEmpty(new byte[0])
                            .map(bytes -> new Reply(response.status().code(), bytes, null)))
                    .timeout(timeout)
                    .onErrorResume(e -> Mono.just(new Reply(
                            0,
                            new byte[0],
                            e instanceof TimeoutException
                                    ? "no answer from the Border within " + timeout
                                    : LinkFailures.isConnectFailure(e)
                                            ? "cannot connect to the Border"
                                            : "exchange with the Border failed")));
        });
    }
}
