package dev.egress.app.ops;

import java.util.List;

/**
 * The result of {@code POST /ops/v1/ips/{ip}/move}: the IP's new owner, and what each Border that announced the
 * IP did, as App's snapshot shows it now.
 *
 * @param ip         the IP
 * @param to         the Border that owns it now
 * @param releasedOn Borders whose announcement in App's snapshot shows the IP released
 * @param borders    every Border that announced the IP when the move started, {@code to} included; a Border's
 *                   {@code status} is {@code CLAIMED}, {@code RELEASED} or {@code ABSENT} (it left)
 * @param generation App's snapshot generation when the answer was built
 */
public record IpMove(
        String ip, String to, List<String> releasedOn, List<IpChange.BorderChange> borders, long generation) {

    /** Copies. */
    public IpMove {
        releasedOn = List.copyOf(releasedOn);
        borders = List.copyOf(borders);
    }
}
