package dev.egress.app.ops;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The result of {@code PUT /ops/v1/ips/{ip}}: what each Border hosting the IP did, and what App's
 * snapshot shows now.
 *
 * @param ip         the IP
 * @param status     the requested status
 * @param conflict   whether several Borders host the IP (the change went to all of them)
 * @param appliedOn  Borders on which App's snapshot shows the requested status
 * @param borders    every Border that hosted the IP when the change started
 * @param generation App's snapshot generation when the answer was built
 */
public record IpChange(
        String ip,
        String status,
        boolean conflict,
        List<String> appliedOn,
        List<BorderChange> borders,
        long generation) {

    /**
     * One Border's part of a change.
     *
     * @param id      the Border
     * @param outcome {@code applied} (its announcement in App's snapshot shows the status), {@code accepted}
     *                (the Border confirmed, App's snapshot does not show it yet) or {@code failed}
     * @param status  the IP's status on that Border in App's snapshot now, {@code ABSENT} if it left
     * @param detail  why it failed, null otherwise
     */
    public record BorderChange(
            String id,
            String outcome,
            String status,
            @Nullable String detail) {}
}
