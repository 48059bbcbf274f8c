/**
 * The registry as the services see it, without any SDK type: the publish side
 * {@link dev.egress.discovery.registry.BorderRegistry} / {@link dev.egress.discovery.registry.Registration}
 * (Borders), the read side {@link dev.egress.discovery.registry.RegistryWatcher} (Apps), and where the
 * registry is ({@link dev.egress.discovery.registry.RegistrySettings}). The YDB implementation is in
 * {@code registry.ydb}.
 */
@NullMarked
package dev.egress.discovery.registry;

import org.jspecify.annotations.NullMarked;
