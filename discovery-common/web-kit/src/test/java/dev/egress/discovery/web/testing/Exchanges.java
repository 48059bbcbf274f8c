package dev.egress.discovery.web.testing;

import org.springframework.http.HttpStatus;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * The plain "GET this, expect that status" exchange both services' tests make many times. It reads the
 * body every time: an unread body keeps a pooled connection busy and hangs later exchanges.
 */
public final class Exchanges {

    private Exchanges() {}

    /**
     * Sends a GET and asserts the answer's status, then reads and discards the body.
     *
     * @param web    the client (its base URL and default headers decide where and as whom)
     * @param uri    the path to read
     * @param status the status the answer must have
     */
    public static void expectGet(WebTestClient web, String uri, HttpStatus status) {
        web.get()
                .uri(uri)
                .exchange()
                .expectStatus()
                .isEqualTo(status)
                .expectBody()
                .returnResult();
    }
}
