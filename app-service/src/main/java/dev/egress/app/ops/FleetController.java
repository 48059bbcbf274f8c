package dev.egress.app.ops;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * App's operator API (Bearer operator token): the whole fleet in one view, and IP status changes
 * applied on whichever Borders host the IP.
 */
@RestController
class FleetController {

    /**
     * Body of a status change.
     *
     * @param status {@code ACTIVE}, {@code DRAINING} or {@code DISABLED}
     */
    record StatusChange(String status) {}

    private final FleetViews views;
    private final IpStatusChanges changes;

    FleetController(FleetViews views, IpStatusChanges changes) {
        this.views = views;
        this.changes = changes;
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
}
