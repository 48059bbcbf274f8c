package dev.egress.app.ops;

import dev.egress.app.routing.ClaimsSync;
import dev.egress.discovery.registry.AnnouncedIp;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.Route;
import dev.egress.discovery.registry.RoutingSnapshot;
import dev.egress.discovery.registry.RoutingTable;
import dev.egress.discovery.web.forward.IpRelease;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * An operator's move of a dedicated IP to another Border: the one way a dedicated IP changes hands while both
 * Borders announce it (a second claim is otherwise a conflict whatever the owner's status). Every other Border
 * announcing the IP is asked to release it and the new owner to claim it, over App's own link ({@link
 * IpStatusCall}); each Border stores that in its decision record in the registry before it announces it, so the
 * move survives restarts of every Border and App. The answer comes once App's snapshot shows the move (the new
 * owner claiming, the others released), as for a status change. Each move is one audit line on the logger
 * {@code egress.audit} when asked and one with its outcome, and shows in the fleet view: the old Border's IP
 * tile carries the reason {@code released}, and the conflict is gone. A claim of a Border that holds no slot (an
 * owner that crashed, or is retired for good) cannot be released by its Border: a confirmed move ends it in the
 * standing claims ({@link ClaimsSync#recordMove}), in the claims table for every App when durable delivery is on
 * (a failure there answers 503 and is audited), in this App's memory otherwise.
 */
final class IpMoves {

    private static final Logger audit = LoggerFactory.getLogger("egress.audit");

    private record Reply(BorderId border, boolean release, IpStatusCall.Reply reply) {}

    private final RoutingTable table;
    private final ClaimsSync claims;
    private final IpStatusCall calls;
    private final IpStatusChanges changes;
    private final JsonMapper json;
    private final Duration timeout;

    IpMoves(
            RoutingTable table,
            ClaimsSync claims,
            IpStatusCall calls,
            IpStatusChanges changes,
            JsonMapper json,
            Duration timeout) {
        this.table = table;
        this.claims = claims;
        this.calls = calls;
        this.changes = changes;
        this.json = json;
        this.timeout = timeout;
    }

    /**
     * Moves an IP to a Border that announces it.
     *
     * @param ipText the IP as given in the path
     * @param toText the new owner's Border id
     * @return the move, or an error: 400 invalid input, 404 no live Border announces the IP or {@code to} does
     *         not, 504 not confirmed within the bound (with the current state), 503 confirmed but not stored in the
     *         claims table
     */
    Mono<IpMove> move(String ipText, String toText) {
        return Mono.defer(() -> {
            EgressIp ip = IpStatusChanges.parseIp(ipText);
            BorderId to = parseBorder(toText);
            List<Route> routes = table.current().routes(ip);
            if (routes.isEmpty()) {
                return Mono.error(new OpsProblems.IpNotHostedException(ip.value()));
            }
            List<String> hosting =
                    routes.stream().map(r -> r.borderId().value()).toList();
            if (!hosting.contains(to.value())) {
                return Mono.error(new OpsProblems.MoveTargetNotHostingException(ip.value(), to.value(), hosting));
            }
            long deadline = System.nanoTime() + timeout.toNanos();
            audit.info("Operator move of {} to {} requested; releasing it on {}", ip, to, others(hosting, to));
            return Flux.fromIterable(routes)
                    .flatMap(route -> {
                        boolean release = !route.borderId().equals(to);
                        byte[] body = json.writeValueAsBytes(new IpRelease(release));
                        return calls.sendRelease(route, ip.value(), body, timeout)
                                .map(reply -> new Reply(route.borderId(), release, reply));
                    })
                    .collectList()
                    .flatMap(replies ->
                            awaitSnapshot(ip, replies, deadline).then(Mono.fromSupplier(() -> result(ip, to, replies))))
                    .flatMap(move -> finish(ip, to, move));
        });
    }

    /**
     * A move every Border confirmed is recorded in the standing claims (stored for every App when the claims table
     * is on) before it answers; that ends the claims of Borders that are not live (an absent owner's): their
     * announcements cannot show a release, so only the operator's word ends them.
     */
    private Mono<IpMove> finish(EgressIp ip, BorderId to, IpMove move) {
        boolean done = move.borders().stream().allMatch(b -> b.outcome().equals("applied"));
        if (!done) {
            audit.info(
                    "Operator move of {} to {} not confirmed within {}; released on {}; borders {}",
                    ip,
                    to,
                    timeout,
                    move.releasedOn(),
                    move.borders());
            return Mono.error(new OpsProblems.MoveNotConfirmedException(
                    "App's snapshot does not show %s moved to %s within %s".formatted(ip, to, timeout), move));
        }
        return Mono.fromFuture(() -> claims.recordMove(ip, to))
                .then(Mono.fromSupplier(() -> {
                    audit.info(
                            "Operator move of {} to {} applied; released on {}; borders {}",
                            ip,
                            to,
                            move.releasedOn(),
                            move.borders());
                    return move;
                }))
                .onErrorMap(e -> {
                    Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
                    audit.warn(
                            "Operator move of {} to {} applied on the Borders but not stored in the claims table ({});"
                                    + " absent Borders' claims of the IP still stand; released on {}; borders {}",
                            ip,
                            to,
                            cause.toString(),
                            move.releasedOn(),
                            move.borders());
                    return new OpsProblems.MoveNotStoredException(String.valueOf(cause.getMessage()), move);
                });
    }

    /** Waits (bounded) until every Border that accepted its part shows it in App's snapshot. */
    private Mono<Void> awaitSnapshot(EgressIp ip, List<Reply> replies, long deadline) {
        List<Reply> accepted =
                replies.stream().filter(r -> r.reply().status() == 200).toList();
        if (accepted.isEmpty()) {
            return Mono.empty();
        }
        Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
        return Mono.fromFuture(() ->
                        table.whenMatches(snapshot -> accepted.stream().allMatch(r -> shows(snapshot, r, ip))))
                .timeout(left)
                .onErrorResume(e -> Mono.empty())
                .then();
    }

    /** A released IP is done once its Border shows it released or left; the new owner once it claims it. */
    private static boolean shows(RoutingSnapshot snapshot, Reply reply, EgressIp ip) {
        Optional<AnnouncedIp> announced = announced(snapshot, reply.border(), ip);
        return reply.release()
                ? announced.map(a -> !a.claims()).orElse(true)
                : announced.map(AnnouncedIp::claims).orElse(false);
    }

    private IpMove result(EgressIp ip, BorderId to, List<Reply> replies) {
        RoutingSnapshot snapshot = table.current();
        Map<String, IpChange.BorderChange> borders = new TreeMap<>();
        List<String> releasedOn = new ArrayList<>();
        for (Reply r : replies) {
            Optional<AnnouncedIp> now = announced(snapshot, r.border(), ip);
            String shown = now.map(a -> a.claims() ? "CLAIMED" : "RELEASED").orElse(FleetView.ABSENT);
            if (now.filter(a -> !a.claims()).isPresent()) {
                releasedOn.add(r.border().value());
            }
            String outcome;
            String detail = null;
            if (r.reply().status() == 200 && shows(snapshot, r, ip)) {
                outcome = "applied";
            } else if (r.reply().status() == 200) {
                outcome = "accepted";
                detail = "the Border confirmed; App's snapshot does not show it yet";
            } else {
                outcome = "failed";
                detail = changes.failure(r.reply());
            }
            borders.put(r.border().value(), new IpChange.BorderChange(r.border().value(), outcome, shown, detail));
        }
        return new IpMove(ip.value(), to.value(), releasedOn, List.copyOf(borders.values()), snapshot.generation());
    }

    private static Optional<AnnouncedIp> announced(RoutingSnapshot snapshot, BorderId border, EgressIp ip) {
        Announcement announcement = snapshot.announcements().get(border);
        if (announcement == null) {
            return Optional.empty();
        }
        return announcement.ips().stream().filter(a -> a.ip().equals(ip)).findFirst();
    }

    private static List<String> others(List<String> hosting, BorderId to) {
        return hosting.stream().filter(b -> !b.equals(to.value())).toList();
    }

    private static BorderId parseBorder(String text) {
        if (text == null || text.isBlank()) {
            throw new OpsProblems.InvalidChangeException(
                    "to: missing (expected: the id of a live Border that announces the IP)");
        }
        try {
            return BorderId.of(text);
        } catch (IllegalArgumentException e) {
            String shown = text.length() > 64 ? text.substring(0, 64) : text;
            throw new OpsProblems.InvalidChangeException("to: '%s' (expected: a Border id)".formatted(shown));
        }
    }
}
