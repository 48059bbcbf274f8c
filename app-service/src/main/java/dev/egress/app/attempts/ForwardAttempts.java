package dev.egress.app.attempts;

import dev.egress.discovery.registry.Route;
import dev.egress.discovery.web.forward.ForwardRequest;
import dev.egress.discovery.web.problem.Problem;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Delivers a webhook through the attempt engine: each attempt is one forward call ({@link ForwardCall}) whose
 * answer is held to the route's source IP ({@link SourceIpCheck}). The entry point for every caller that delivers,
 * the API's at once and a scheduled one later: it takes a webhook and a deadline and returns the outcome.
 */
public final class ForwardAttempts {

    private final AttemptLoop loop;
    private final ForwardCall call;
    private final AttemptEvents events;

    private ForwardAttempts(AttemptLoop loop, ForwardCall call, AttemptEvents events) {
        this.loop = loop.reporting(events);
        this.call = call;
        this.events = events;
    }

    /**
     * Deliveries through an engine.
     *
     * @param loop   the engine
     * @param call   the forward call
     * @param events where attempts, retries and Border faults are reported
     * @return the deliveries
     */
    public static ForwardAttempts of(AttemptLoop loop, ForwardCall call, AttemptEvents events) {
        return new ForwardAttempts(loop, call, events);
    }

    /**
     * Delivers a webhook before a deadline. Never fails: running out of time is an outcome too (504
     * {@code target-timeout}, an attempt may have reached the target).
     *
     * @param webhook        the webhook
     * @param deadlineMillis when to give up, epoch millis; no attempt's deadline goes past it
     * @return the outcome
     */
    public Mono<ForwardOutcome> deliver(Webhook webhook, long deadlineMillis) {
        return Mono.defer(() -> {
            Run run = new Run(webhook);
            Duration left = Duration.ofMillis(Math.max(0, deadlineMillis - System.currentTimeMillis()));
            return loop.run(webhook.resolution(), webhook.key(), deadlineMillis, run)
                    .map(run::outcome)
                    .timeout(left)
                    .onErrorResume(
                            TimeoutException.class,
                            e -> Mono.just(run.failed(loop.problems().overallTimeout(), null)));
        });
    }

    /** One delivery's attempts. */
    private final class Run implements Attempt<ForwardOutcome> {
        private final Webhook webhook;
        private final List<ForwardOutcome.Tried> attempts = new ArrayList<>(2);
        private @Nullable AttemptResult last;

        Run(Webhook webhook) {
            this.webhook = webhook;
        }

        @Override
        public Mono<AttemptResult> send(Sending sending) {
            Route route = sending.route();
            ForwardRequest request = new ForwardRequest(
                    webhook.deliveryId(),
                    route.ip().value(),
                    webhook.url(),
                    webhook.method(),
                    webhook.headers(),
                    webhook.body());
            return call.call(sending.handle(), route, request, sending.deadline())
                    .map(result -> SourceIpCheck.verify(route, result, events));
        }

        @Override
        public synchronized void recorded(Route route, AttemptResult result) {
            attempts.add(new ForwardOutcome.Tried(route, result));
            last = result;
        }

        @Override
        public ForwardOutcome delivered(Route route, AttemptResult result, int sent) {
            return new ForwardOutcome(snapshot(), route, result.response(), null, result);
        }

        ForwardOutcome outcome(AttemptOutcome<ForwardOutcome> outcome) {
            if (outcome instanceof AttemptOutcome.Failed<ForwardOutcome> failed) {
                return failed(failed.problem(), failed.last());
            }
            return ((AttemptOutcome.Delivered<ForwardOutcome>) outcome).value();
        }

        synchronized ForwardOutcome failed(Problem problem, @Nullable AttemptResult result) {
            return new ForwardOutcome(attempts, null, null, problem, result != null ? result : last);
        }

        private synchronized List<ForwardOutcome.Tried> snapshot() {
            return List.copyOf(attempts);
        }
    }
}
