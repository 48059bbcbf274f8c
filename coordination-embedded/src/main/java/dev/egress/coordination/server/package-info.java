/**
 * The gRPC face of the embedded node: {@link dev.egress.coordination.server.DiscoveryGrpcService}
 * ({@code ListEndpoints}) and {@link dev.egress.coordination.server.CoordinationGrpcService} (node RPCs and
 * the {@code Session} stream), with YDB's token check.
 */
@NullMarked
package dev.egress.coordination.server;

import org.jspecify.annotations.NullMarked;
