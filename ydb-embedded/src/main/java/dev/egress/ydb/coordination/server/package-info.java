/**
 * The gRPC face of the embedded node: {@link dev.egress.ydb.coordination.server.DiscoveryGrpcService}
 * ({@code ListEndpoints}) and {@link dev.egress.ydb.coordination.server.CoordinationGrpcService} (node RPCs and
 * the {@code Session} stream), with YDB's token check.
 */
@NullMarked
package dev.egress.ydb.coordination.server;

import org.jspecify.annotations.NullMarked;
