/**
 * An in-memory coordination node that speaks YDB's Discovery and Coordination gRPC protocols, so the
 * official SDK, and with it the real registry adapter, runs without Docker or YDB.
 *
 * <p>Entry points: {@link dev.egress.ydb.coordination.EmbeddedCoordinationMain} (the command line of
 * {@code ydb-embedded.jar}: {@code --port}, {@code --database}, {@code --host},
 * {@code --token-file}, {@code --tls-cert}/{@code --tls-key}) and
 * {@link dev.egress.ydb.coordination.EmbeddedCoordinationNode} (start one in a test, on port 0), with
 * {@link dev.egress.ydb.coordination.NodeAccess} for tokens and TLS.
 *
 * <p>Sub-packages: {@code server} (the gRPC services and the session stream) and {@code node} (the
 * single-threaded state machine of sessions and semaphores).
 */
@NullMarked
package dev.egress.ydb.coordination;

import org.jspecify.annotations.NullMarked;
