package dev.egress.app.proxy;

import dev.egress.discovery.web.problem.Problem;
import dev.egress.discovery.web.problem.ProblemException;
import dev.egress.discovery.web.problem.ProblemReason;
import dev.egress.discovery.web.problem.ProblemResponses;
import dev.egress.discovery.web.problem.ProblemType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.springframework.http.HttpStatus;

/**
 * The proxy's answers before a tunnel is up, as raw HTTP/1.1 (the listener speaks HTTP only for the request
 * head): a problem+json body with the API's slugs, {@code Retry-After} on 429 and 503, and on 407
 * {@code Proxy-Authenticate: Basic realm="egress"}. The answers that end a tunnel attempt close the connection:
 * a client that sent CONNECT expects either a tunnel or the end of the connection.
 */
final class ProxyAnswers {

    /** The reason of a CONNECT to a port other than 443, 80 and those {@code egress.proxy.allowed-ports} adds. */
    static final ProblemReason PORT_NOT_ALLOWED = () -> "port-not-allowed";

    /** The CONNECT's success line: the tunnel is up from here. */
    static final byte[] ESTABLISHED = "HTTP/1.1 200 Connection established\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    /** How long a refused absolute-form request's remaining body is read and dropped before the close. */
    private static final long LINGER_MILLIS = 2000;

    private ProxyAnswers() {}

    /**
     * Writes an answer and ends the connection. After an absolute-form request the sender may still be sending
     * its body (the JDK client streams it while it waits for the 407 it answers): closing with unread bytes resets
     * the connection, and the reset can destroy the answer before the sender reads it (RFC 9112 section 9.6). So
     * the proxy then reads and drops what still comes, and closes when the sender does or after a while.
     *
     * @param ctx           the connection
     * @param problem       the answer
     * @param bodyMayFollow whether request bytes may still be on their way
     */
    static void send(ChannelHandlerContext ctx, Problem problem, boolean bodyMayFollow) {
        ChannelFuture written = ctx.writeAndFlush(encode(ctx.alloc(), problem));
        if (!bodyMayFollow) {
            written.addListener(ChannelFutureListener.CLOSE);
            return;
        }
        written.addListener(done -> {
            ctx.channel().config().setAutoRead(true);
            ctx.executor().schedule(() -> ctx.close(), LINGER_MILLIS, TimeUnit.MILLISECONDS);
        });
    }

    /**
     * 407 with the challenge.
     *
     * @param detail why
     * @return the problem
     */
    static Problem authenticationRequired(String detail) {
        return Problem.of(ProblemType.UNAUTHORIZED, detail).withStatus(HttpStatus.PROXY_AUTHENTICATION_REQUIRED);
    }

    /**
     * 429 for a tenant at its open-tunnel limit in this App.
     *
     * @param tenant the tenant
     * @param limit  {@code egress.proxy.max-tunnels-per-tenant}
     * @return the problem, with {@code Retry-After}
     */
    static Problem tooManyTunnels(String tenant, int limit) {
        return Problem.of(
                        ProblemType.TOO_MANY_TUNNELS,
                        "tenant '%s' has %d tunnels open (egress.proxy.max-tunnels-per-tenant)"
                                .formatted(tenant, limit))
                .withRetryAfter(Duration.ofSeconds(1));
    }

    /**
     * The answer when a tunnel could not be opened.
     *
     * @param error why: a problem, or anything else (500)
     * @return the problem
     */
    static Problem notOpened(Throwable error) {
        return error instanceof ProblemException p
                ? p.problem()
                : Problem.of(ProblemType.INTERNAL, "the tunnel could not be opened");
    }

    /**
     * The outcome a refusal is counted under: its reason when it has one, else its slug.
     *
     * @param problem the refusal
     * @return the metric's {@code outcome}
     */
    static String outcomeOf(Problem problem) {
        return problem.reason() != null ? problem.reason().code() : problem.slug();
    }

    /**
     * 400 for a request the proxy cannot read.
     *
     * @param detail what is wrong
     * @return the problem
     */
    static Problem malformed(String detail) {
        return Problem.of(ProblemType.INVALID_REQUEST, detail);
    }

    /**
     * The bytes of an answer.
     *
     * @param alloc   the connection's allocator
     * @param problem the problem
     * @return status line, headers and body
     */
    static ByteBuf encode(ByteBufAllocator alloc, Problem problem) {
        byte[] body = ProblemResponses.json(problem);
        HttpStatus status = problem.status();
        StringBuilder head = new StringBuilder(256)
                .append("HTTP/1.1 ")
                .append(status.value())
                .append(' ')
                .append(status.getReasonPhrase())
                .append("\r\nContent-Type: application/problem+json\r\nContent-Length: ")
                .append(body.length)
                .append("\r\nConnection: close\r\n");
        if (status == HttpStatus.PROXY_AUTHENTICATION_REQUIRED) {
            head.append("Proxy-Authenticate: Basic realm=\"egress\"\r\n");
        }
        if (problem.retryAfter() != null) {
            head.append("Retry-After: ")
                    .append(Math.max(1, (problem.retryAfter().toMillis() + 999) / 1000))
                    .append("\r\n");
        }
        head.append("\r\n");
        byte[] headBytes = head.toString().getBytes(StandardCharsets.US_ASCII);
        ByteBuf out = alloc.buffer(headBytes.length + body.length);
        return out.writeBytes(headBytes).writeBytes(body);
    }
}
