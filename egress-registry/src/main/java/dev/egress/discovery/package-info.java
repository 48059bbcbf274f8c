/**
 * The vocabulary both services share, and the routing state App keeps. See docs/architecture.md ("Modules",
 * "The registry protocol").
 *
 * <p>Entry points:
 * <ul>
 *   <li>the registry payload: {@link dev.egress.discovery.Announcement} (one Border's whole state), its
 *       {@link dev.egress.discovery.AnnouncedIp}s with an {@link dev.egress.discovery.IpStatus}, the
 *       {@link dev.egress.discovery.BorderId} and {@link dev.egress.discovery.EgressIp} values, and the
 *       strict {@link dev.egress.discovery.AnnouncementCodec} behind the
 *       {@link dev.egress.discovery.AnnouncementReader} and {@link dev.egress.discovery.AnnouncementWriter}
 *       seams;</li>
 *   <li>routing state: {@link dev.egress.discovery.RoutingSnapshot} (immutable map IP → Borders) held by
 *       the one {@link dev.egress.discovery.RoutingTable}, read on the request path as
 *       {@link dev.egress.discovery.Route}s.</li>
 * </ul>
 *
 * <p>Sub-packages: {@code select} (selection strategies), {@code registry} (the registry ports) and
 * {@code registry.ydb} (the only package importing the YDB SDK), {@code trust} (signed announcements,
 * SPIFFE identities, mutual TLS), {@code forward} (the App↔Border wire records), {@code problem} (problem
 * types, typed exceptions and their one mapping to RFC 9457 answers), {@code auth} (bearer tokens and canonical
 * paths), {@code server} (listening-port deadlines), {@code boot} (Spring Boot support).
 */
@NullMarked
package dev.egress.discovery;

import org.jspecify.annotations.NullMarked;
