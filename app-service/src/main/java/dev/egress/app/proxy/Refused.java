package dev.egress.app.proxy;

import dev.egress.discovery.registry.LogText;
import dev.egress.discovery.registry.RateLimitedLog;
import dev.egress.discovery.web.problem.Problem;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import org.slf4j.LoggerFactory;

/**
 * The last phase of a refused connection: the answer is written ({@link ProxyAnswers#send}) and whatever the sender
 * still writes is dropped until the connection closes. Every refusal is one log line naming the sender's address,
 * the outcome and why (never a credential), rate-limited: a sender refuses itself at will.
 */
@ChannelHandler.Sharable
final class Refused extends ChannelInboundHandlerAdapter {

    /** The refusals' logger. */
    static final String LOG = "dev.egress.app.proxy.refusals";

    private static final Refused INSTANCE = new Refused();
    private static final RateLimitedLog lines = new RateLimitedLog(LoggerFactory.getLogger(LOG), Duration.ofMillis(50));

    private Refused() {}

    /**
     * Counts a refusal, logs it, answers it and puts the connection in its last phase.
     *
     * @param ctx           the current phase's context, replaced by this phase
     * @param metrics       where the refusal is counted
     * @param problem       the answer
     * @param tenantClass   the sender's tenant class, or {@code unknown}
     * @param bodyMayFollow whether request bytes may still be on their way
     */
    static void answer(
            ChannelHandlerContext ctx,
            ProxyMetrics metrics,
            Problem problem,
            String tenantClass,
            boolean bodyMayFollow) {
        String outcome = ProxyAnswers.outcomeOf(problem);
        metrics.refused(outcome, tenantClass);
        logged(ctx, outcome, problem.detail());
        if (ctx.channel().isActive()) {
            ProxyAnswers.send(ctx, problem, bodyMayFollow);
        }
        if (!ctx.isRemoved()) {
            ctx.pipeline().replace(ctx.handler(), "proxy.refused", INSTANCE);
        }
    }

    /**
     * Logs a refusal with the sender's address.
     *
     * @param ctx     the connection
     * @param outcome the outcome, as the refusal metric counts it
     * @param detail  why
     */
    static void logged(ChannelHandlerContext ctx, String outcome, String detail) {
        lines.warn(
                "proxy refused sender=%s outcome=%s detail=%s"
                        .formatted(
                                sender(ctx.channel().remoteAddress()), outcome, LogText.escape(String.valueOf(detail))),
                null);
    }

    private static String sender(SocketAddress address) {
        return address instanceof InetSocketAddress inet ? inet.getAddress().getHostAddress() : String.valueOf(address);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ReferenceCountUtil.release(msg);
    }
}
