package dev.egress.app.proxy;

import dev.egress.discovery.problem.Problem;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;

/**
 * The last phase of a refused connection: the answer is written ({@link ProxyAnswers#send}) and whatever the sender
 * still writes is dropped until the connection closes.
 */
@ChannelHandler.Sharable
final class Refused extends ChannelInboundHandlerAdapter {

    private static final Refused INSTANCE = new Refused();

    private Refused() {}

    /**
     * Counts a refusal, answers it and puts the connection in its last phase.
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
        metrics.refused(ProxyAnswers.outcomeOf(problem), tenantClass);
        if (ctx.channel().isActive()) {
            ProxyAnswers.send(ctx, problem, bodyMayFollow);
        }
        if (!ctx.isRemoved()) {
            ctx.pipeline().replace(ctx.handler(), "proxy.refused", INSTANCE);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ReferenceCountUtil.release(msg);
    }
}
