package dev.egress.discovery.web.testing;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.provider.Arguments;
import org.springframework.http.HttpMethod;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * The table both services' path-authorisation tests run: every door, spelled every {@link PathVariant},
 * with every token, and the status expected. The rules both services share live here once, so the two
 * tables cannot drift; a service adds only its own rules (App's tenant-bound tokens) in front.
 */
public final class DoorTable {

    private DoorTable() {}

    /**
     * A token to present at a door.
     *
     * @param name  its name in the test's report
     * @param value the bearer token, or null to send none
     */
    public record Token(String name, @Nullable String value) {
        @Override
        public String toString() {
            return name;
        }
    }

    /**
     * A door of a service.
     *
     * @param name          its name in the test's report
     * @param method        the method its route takes
     * @param path          its canonical path
     * @param token         the token it takes ({@code null}: open)
     * @param trailingSlash what its route answers to a trailing slash (actuator's health mapping accepts one: the
     *                      same endpoint behind the same door)
     */
    public record Door(
            String name,
            HttpMethod method,
            String path,
            @Nullable Token token,
            int trailingSlash) {
        @Override
        public String toString() {
            return name;
        }
    }

    /**
     * The request of one row, with its token; the caller adds a body where the door needs one.
     *
     * @param client  a client bound to the server
     * @param port    the server's port on 127.0.0.1
     * @param door    the door
     * @param variant the spelling of its path
     * @param token   the token presented
     * @return the request, ready to exchange
     */
    public static WebTestClient.RequestBodySpec request(
            WebTestClient client, int port, Door door, PathVariant variant, Token token) {
        URI uri = URI.create("http://127.0.0.1:" + port + variant.of(door.path()));
        WebTestClient.RequestBodySpec request = client.method(door.method()).uri(uri);
        if (token.value() != null) {
            request.header("Authorization", "Bearer " + token.value());
        }
        return request;
    }

    /**
     * The status a door expects for one row.
     *
     * @param <D> the service's door type
     * @param <T> the service's token type
     */
    @FunctionalInterface
    public interface Expectation<D, T> {
        /**
         * The expected status.
         *
         * @param door    the door
         * @param variant the spelling of its path
         * @param token   the token presented
         * @return the HTTP status
         */
        int status(D door, PathVariant variant, T token);
    }

    /**
     * Rows of {@code door, variant, token, status} for a parameterised test.
     *
     * @param doors    every door of the service
     * @param tokens   every token to try
     * @param expected the status of one row
     * @param <D>      the door type
     * @param <T>      the token type
     * @return one row per door, variant and token
     */
    public static <D, T> Stream<Arguments> rows(D[] doors, T[] tokens, Expectation<D, T> expected) {
        List<Arguments> rows = new ArrayList<>();
        for (D door : doors) {
            for (PathVariant variant : PathVariant.values()) {
                for (T token : tokens) {
                    rows.add(Arguments.of(door, variant, token, expected.status(door, variant, token)));
                }
            }
        }
        return rows.stream();
    }

    /**
     * The rules both services share: 400 for a spelling with two meanings (before any token is looked
     * at); 200 for an open door's canonical path; 401 for a token other than the one required (a variant
     * of an open path is not open: it falls to the door of its first segment); then the route's own
     * answer to a trailing slash, 200 on the canonical path and 404 for a route that does not exist.
     *
     * @param variant       the spelling
     * @param open          whether the door takes no token
     * @param rightToken    whether the token presented is the one the path requires
     * @param trailingSlash what the door's route answers to a trailing slash
     * @return the HTTP status
     */
    public static int shared(PathVariant variant, boolean open, boolean rightToken, int trailingSlash) {
        if (variant.refused()) {
            return 400;
        }
        if (open && variant == PathVariant.CANONICAL) {
            return 200;
        }
        if (!rightToken) {
            return 401;
        }
        if (variant == PathVariant.TRAILING_SLASH) {
            return trailingSlash;
        }
        return variant == PathVariant.CANONICAL ? 200 : 404;
    }
}
