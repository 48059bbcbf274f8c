package dev.egress.ydb.coordination.server;

import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Set;

/**
 * Refuses every call whose {@code x-ydb-auth-ticket} is missing or not an accepted token, with gRPC
 * UNAUTHENTICATED as YDB does (the SDK reports it as {@code CLIENT_UNAUTHENTICATED}). Tokens are compared
 * in constant time.
 */
public final class TokenCheck implements ServerInterceptor {

    /** The header the YDB SDK sends its token in. */
    public static final Metadata.Key<String> AUTH_TICKET =
            Metadata.Key.of("x-ydb-auth-ticket", Metadata.ASCII_STRING_MARSHALLER);

    private final List<byte[]> accepted;

    /**
     * Creates the check.
     *
     * @param tokens accepted tokens, at least one
     */
    public TokenCheck(Set<String> tokens) {
        if (tokens.isEmpty()) {
            throw new IllegalArgumentException("tokens: empty (expected: at least one accepted token)");
        }
        this.accepted =
                tokens.stream().map(t -> t.getBytes(StandardCharsets.UTF_8)).toList();
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(
            ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        String ticket = headers.get(AUTH_TICKET);
        if (ticket == null || !matches(ticket.getBytes(StandardCharsets.UTF_8))) {
            call.close(
                    Status.UNAUTHENTICATED.withDescription(ticket == null ? "no access token" : "unknown access token"),
                    new Metadata());
            return new ServerCall.Listener<>() {};
        }
        return next.startCall(call, headers);
    }

    private boolean matches(byte[] ticket) {
        boolean match = false;
        for (byte[] token : accepted) {
            match |= MessageDigest.isEqual(token, ticket); // no early exit: every token is compared
        }
        return match;
    }
}
