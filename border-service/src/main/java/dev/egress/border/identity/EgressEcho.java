package dev.egress.border.identity;

import dev.egress.discovery.registry.EgressIp;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * One question to the echo service: "which address did this connection come from?", asked from a socket
 * bound to a given address. A fresh connection each time (no pool): a kept-alive connection would answer
 * for the path it took when it was opened, not for the path a new webhook takes now. The answer is the
 * first line of a small plain-text body, an IPv4 or IPv6 literal.
 */
final class EgressEcho {

    /** checkip-style services answer a line of at most ~40 characters; anything much longer is not one. */
    private static final int MAX_ANSWER_BYTES = 256;

    private final URI url;
    private final Duration timeout;

    EgressEcho(URI url, Duration timeout) {
        this.url = url;
        this.timeout = timeout;
    }

    /**
     * Asks the echo service from {@code bind}.
     *
     * @param bind the local address to connect from
     * @return the address the service saw; errors with {@link EchoFailedException} saying why not
     */
    Mono<EgressIp> ask(EgressIp bind) {
        InetSocketAddress local = new InetSocketAddress(bind.toInetAddress(), 0);
        HttpClient client = HttpClient.create(ConnectionProvider.newConnection())
                .bindAddress(() -> local)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()))
                .responseTimeout(timeout)
                .followRedirect(false)
                .headers(h -> h.set(HttpHeaderNames.ACCEPT, "text/plain"));
        return client.get()
                .uri(url)
                .responseSingle((response, body) -> {
                    int status = response.status().code();
                    if (status != 200) {
                        return Mono.error(new EchoFailedException("answered HTTP " + status));
                    }
                    return body.asByteArray().defaultIfEmpty(new byte[0]).map(EgressEcho::parse);
                })
                .timeout(timeout)
                .onErrorMap(e -> !(e instanceof EchoFailedException), e -> new EchoFailedException(describe(e)));
    }

    static EgressIp parse(byte[] body) {
        if (body.length > MAX_ANSWER_BYTES) {
            throw new EchoFailedException("answered %d bytes (expected: one address, at most %d bytes)"
                    .formatted(body.length, MAX_ANSWER_BYTES));
        }
        String text = new String(body, StandardCharsets.US_ASCII).strip();
        int newline = text.indexOf('\n');
        String first = (newline < 0 ? text : text.substring(0, newline)).strip();
        try {
            return EgressIp.of(first);
        } catch (IllegalArgumentException e) {
            throw new EchoFailedException("answered '%s' (expected: an IPv4 or IPv6 literal)"
                    .formatted(first.length() > 45 ? first.substring(0, 45) + "..." : first));
        }
    }

    private static String describe(Throwable e) {
        String message = e.getMessage();
        return e.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }

    /** A check that got no usable answer; hot path of nothing, but thrown per check, so no stack trace. */
    static final class EchoFailedException extends RuntimeException {
        EchoFailedException(String message) {
            super(message, null, false, false);
        }
    }
}
