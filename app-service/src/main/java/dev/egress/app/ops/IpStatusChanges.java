package dev.egress.app.ops;

import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.registry.Route;
import dev.egress.discovery.registry.RoutingSnapshot;
import dev.egress.discovery.registry.RoutingTable;
import dev.egress.discovery.web.forward.BorderProblem;
import dev.egress.discovery.web.forward.IpStatusChange;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * Applies an operator's IP status change on every Border that hosts the IP, over App's own link to
 * the Borders ({@link IpStatusCall}), and answers once App's snapshot (what routing uses) shows it. The Borders do the
 * real work: each republishes its whole announcement; App only waits to see the result come back
 * through the registry, so a 200 here means App already routes accordingly.
 */
final class IpStatusChanges {

    private static final Logger log = LoggerFactory.getLogger(IpStatusChanges.class);

    private record Reply(BorderId border, IpStatusCall.Reply reply) {}

    private final RoutingTable table;
    private final IpStatusCall calls;
    private final JsonMapper json;
    private final Duration timeout;

    IpStatusChanges(RoutingTable table, IpStatusCall calls, JsonMapper json, Duration timeout) {
        this.table = table;
        this.calls = calls;
        this.json = json;
        this.timeout = timeout;
    }

    /**
     * Changes an IP's status fleet-wide.
     *
     * @param ipText     the IP as given in the path
     * @param statusText the requested status
     * @return the change, or an error: 400 invalid input, 404 no live Border hosts the IP, 504 not
     *         confirmed within the bound (with the current state)
     */
    Mono<IpChange> change(String ipText, String statusText) {
        return Mono.defer(() -> {
            IpStatus status = parseStatus(statusText);
            EgressIp ip = parseIp(ipText);
            List<Route> routes = table.current().routes(ip);
            if (routes.isEmpty()) {
                return Mono.error(new OpsProblems.IpNotHostedException(ip.value()));
            }
            long deadline = System.nanoTime() + timeout.toNanos();
            byte[] body = json.writeValueAsBytes(new IpStatusChange(status.name()));
            log.info(
                    "Operator sets {} to {} on {}",
                    ip,
                    status,
                    routes.stream().map(Route::borderId).toList());
            return Flux.fromIterable(routes)
                    .flatMap(route -> calls.send(route, ip.value(), body, timeout)
                            .map(reply -> new Reply(route.borderId(), reply)))
                    .collectList()
                    .flatMap(replies -> awaitSnapshot(ip, status, replies, deadline)
                            .then(Mono.fromSupplier(() -> result(ip, status, replies))))
                    .flatMap(change -> confirmed(change)
                            ? Mono.just(change)
                            : Mono.error(new OpsProblems.ChangeNotConfirmedException(
                                    "App's snapshot does not show %s as %s on every Border hosting it within %s"
                                            .formatted(ip, status, timeout),
                                    change)));
        });
    }

    /**
     * Waits (bounded) until every Border that accepted the change shows it in App's snapshot. Woken by the
     * swap that shows it ({@link RoutingTable#whenMatches}), not by a poll: a poll period would add up to one
     * period to every answer (the tail of issue 27's propagation figure).
     */
    private Mono<Void> awaitSnapshot(EgressIp ip, IpStatus status, List<Reply> replies, long deadline) {
        List<BorderId> accepted = replies.stream()
                .filter(r -> r.reply().status() == 200)
                .map(Reply::border)
                .toList();
        if (accepted.isEmpty()) {
            return Mono.empty();
        }
        Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
        // Mono.fromFuture cancels the wait on the timeout, which takes it off the table.
        return Mono.fromFuture(() -> table.whenMatches(snapshot -> accepted.stream()
                        .allMatch(b -> statusIn(snapshot, b, ip)
                                .filter(s -> s == status)
                                .isPresent())))
                .timeout(left)
                .onErrorResume(e -> Mono.empty())
                .then();
    }

    private IpChange result(EgressIp ip, IpStatus status, List<Reply> replies) {
        RoutingSnapshot snapshot = table.current();
        Map<String, IpChange.BorderChange> borders = new TreeMap<>();
        List<String> appliedOn = new ArrayList<>();
        for (Reply r : replies) {
            Optional<IpStatus> now = statusIn(snapshot, r.border(), ip);
            String shown = now.map(Enum::name).orElse(FleetView.ABSENT);
            String outcome;
            String detail = null;
            if (r.reply().status() == 200 && now.filter(s -> s == status).isPresent()) {
                outcome = "applied";
                appliedOn.add(r.border().value());
            } else if (r.reply().status() == 200) {
                outcome = "accepted";
                detail = "the Border confirmed; App's snapshot does not show it yet";
            } else {
                outcome = "failed";
                detail = failure(r.reply());
            }
            borders.put(r.border().value(), new IpChange.BorderChange(r.border().value(), outcome, shown, detail));
        }
        return new IpChange(
                ip.value(),
                status.name(),
                replies.size() > 1,
                appliedOn.stream().sorted().toList(),
                List.copyOf(borders.values()),
                snapshot.generation());
    }

    private static boolean confirmed(IpChange change) {
        return change.borders().stream().allMatch(b -> b.outcome().equals("applied"));
    }

    String failure(IpStatusCall.Reply reply) {
        if (reply.failure() != null) {
            return reply.failure();
        }
        // Not a problem body: the status alone says enough.
        String detail = BorderProblem.read(json, reply.body())
                .map(BorderProblem::detail)
                .orElse(null);
        return "Border answered %d%s".formatted(reply.status(), detail == null ? "" : ": " + detail);
    }

    private static Optional<IpStatus> statusIn(RoutingSnapshot snapshot, BorderId border, EgressIp ip) {
        Announcement announcement = snapshot.announcements().get(border);
        return announcement == null ? Optional.empty() : announcement.statusOf(ip);
    }

    private static IpStatus parseStatus(String text) {
        return IpStatus.fromName(text)
                .orElseThrow(() -> new OpsProblems.InvalidChangeException(
                        "status: '%s' (expected: %s)".formatted(text, IpStatus.choices())));
    }

    static EgressIp parseIp(String text) {
        try {
            return EgressIp.of(text);
        } catch (IllegalArgumentException e) {
            String shown = text.length() > 64 ? text.substring(0, 64) : text;
            throw new OpsProblems.InvalidChangeException("ip: '%s' (expected: an IP literal)".formatted(shown));
        }
    }
}
