/**
 * The vocabulary both services share, the routing state App keeps, and the registry as the services see it,
 * without any SDK type. See docs/architecture.md ("Modules", "The registry protocol").
 *
 * <p>Entry points:
 * <ul>
 *   <li>the registry payload: {@link dev.egress.discovery.registry.Announcement} (one Border's whole state), its
 *       {@link dev.egress.discovery.registry.AnnouncedIp}s with an {@link dev.egress.discovery.registry.IpStatus},
 *       the {@link dev.egress.discovery.registry.BorderId} and {@link dev.egress.discovery.registry.EgressIp}
 *       values, and the strict {@link dev.egress.discovery.registry.AnnouncementCodec} behind the
 *       {@link dev.egress.discovery.registry.AnnouncementReader} and
 *       {@link dev.egress.discovery.registry.AnnouncementWriter} seams;</li>
 *   <li>routing state: {@link dev.egress.discovery.registry.RoutingSnapshot} (immutable map IP → Borders) held
 *       by the one {@link dev.egress.discovery.registry.RoutingTable}, read on the request path as
 *       {@link dev.egress.discovery.registry.Route}s;</li>
 *   <li>the registry ports: the publish side {@link dev.egress.discovery.registry.BorderRegistry} /
 *       {@link dev.egress.discovery.registry.Registration} (Borders), the read side
 *       {@link dev.egress.discovery.registry.RegistryWatcher} (Apps), and where the registry is
 *       ({@link dev.egress.discovery.registry.RegistrySettings}).</li>
 * </ul>
 *
 * <p>Sub-package {@code select}: the selection strategies. The YDB implementation of the ports is the library
 * registry-ydb ({@code dev.egress.discovery.registry.ydb}, the only package importing the YDB SDK).
 */
@NullMarked
package dev.egress.discovery.registry;

import org.jspecify.annotations.NullMarked;
