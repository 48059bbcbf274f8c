package dev.egress.app.ops;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * App's operator API (Bearer operator token): the whole fleet in one view, IP status changes applied on
 * whichever Borders host the IP, and moves of a dedicated IP from one Border to another.
 */
@RestController
class FleetController {

    /**
     * Body of a status change.
     *
     * @param status {@code ACTIVE}, {@code DRAINING} or {@code DISABLED}
     */
    record StatusChange(String status) {}

    /**
     * Body of a move.
     *
     * @param to the Border that takes the IP over (it must announce it)
     */
    record Move(String to) {}

    private final FleetViews views;
    private final IpStatusChanges changes;
    private final IpMoves moves;

    FleetController(FleetViews views, IpStatusChanges changes, IpMoves moves) {
        this.views = views;
        this.changes = changes;
        this.moves = moves;
    }

    @Operation(
            summary = "The fleet as this App sees it: Borders, IPs with their tenants and App's health view, "
                    + "conflicts, rejected announcements, tenants without a usable IP")
    @GetMapping("/ops/v1/fleet")
    FleetView fleet() {
        return views.current();
    }

    @Operation(
            summary = "Set an IP's status on every live Border hosting it; answers once App's snapshot shows it",
            responses = {
                @ApiResponse(responseCode = "200", description = "applied on every Border hosting the IP"),
                @ApiResponse(responseCode = "400", description = "invalid IP or status"),
                @ApiResponse(responseCode = "404", description = "no live Border announces the IP"),
                @ApiResponse(
                        responseCode = "504",
                        description = "not confirmed within egress.ops.change-timeout; "
                                + "the problem body carries the current state per Border")
            })
    @PutMapping("/ops/v1/ips/{ip}")
    Mono<IpChange> change(@PathVariable("ip") String ip, @RequestBody StatusChange change) {
        return changes.change(ip, change == null ? null : change.status());
    }

    @Operation(
            summary = "Move a dedicated IP to one of the live Borders announcing it: every other one releases it "
                    + "(stored in its decision record, audited); answers once App's snapshot shows it",
            responses = {
                @ApiResponse(
                        responseCode = "200",
                        description = "the new owner claims the IP, every other releases it"),
                @ApiResponse(responseCode = "400", description = "invalid IP or Border id"),
                @ApiResponse(
                        responseCode = "404",
                        description = "no live Border announces the IP, or the named Border does not"),
                @ApiResponse(
                        responseCode = "503",
                        description = "applied on the Borders, but the claims table (durable delivery on) could not"
                                + " record it; repeat the move"),
                @ApiResponse(
                        responseCode = "504",
                        description = "not confirmed within egress.ops.change-timeout; "
                                + "the problem body carries the current state per Border")
            })
    @PostMapping("/ops/v1/ips/{ip}/move")
    Mono<IpMove> move(@PathVariable("ip") String ip, @RequestBody Move move) {
        return moves.move(ip, move == null ? null : move.to());
    }
}
