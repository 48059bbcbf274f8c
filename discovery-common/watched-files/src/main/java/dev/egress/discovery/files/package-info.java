/**
 * Files a running service reads again when they change, without a restart: certificates, token files, the
 * tenants file, the registry token. One primitive, {@link dev.egress.discovery.files.WatchedFile}: one change
 * rule, last good value kept, listeners, reload metrics and one shared poller thread.
 */
@NullMarked
package dev.egress.discovery.files;

import org.jspecify.annotations.NullMarked;
