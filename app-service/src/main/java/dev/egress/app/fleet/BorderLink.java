package dev.egress.app.fleet;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * App's link to one Border endpoint: its own connection pool and the client that speaks to it (mutual TLS
 * accepting only that Border's certificate when the trust chain is on, the internal token on every request,
 * PING liveness on HTTP/2). A Border that leaves the snapshot gets no new calls at once, but its pool is closed
 * only when the calls already on it have ended: closing it under them would cut answers a draining Border
 * still sends (a rolling restart would turn them into 502s that may have reached the target). So every call
 * on the link brackets itself with {@link #started()} and {@link #ended()}.
 */
public final class BorderLink {

    private final HttpClient http;
    private final ConnectionProvider provider;
    private final String baseUrl;
    private final LinkWatch watch;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicBoolean retired = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();

    BorderLink(HttpClient http, ConnectionProvider provider, String baseUrl, LinkWatch watch) {
        this.http = http;
        this.provider = provider;
        this.baseUrl = baseUrl;
        this.watch = watch;
    }

    /**
     * The pooled client of this Border, with its TLS identity check and the internal token: what every call
     * to the Border (forward, IP change, tunnel) goes through.
     *
     * @return the client
     */
    public HttpClient http() {
        return http;
    }

    /**
     * An absolute URL on this Border.
     *
     * @param path the path, starting with {@code /}
     * @return the endpoint's base followed by the path
     */
    public String url(String path) {
        return baseUrl + path;
    }

    /**
     * Whether a connection of this link is silent now ({@link LinkLiveness}): the link takes no new call.
     *
     * @return true while one is
     */
    public boolean silent() {
        return watch.silentNow();
    }

    /**
     * Waits while a PING of this link is in doubt ({@link LinkWatch}), at most {@code bound}.
     *
     * @param bound the longest wait (the doubt ends by the PING timeout; this only guards against a lost
     *              signal), after which the link counts as silent
     * @return true when the link can take a new call; false when it went silent
     */
    public Mono<Boolean> settled(Duration bound) {
        return watch.settled(bound);
    }

    /** A call starts on this link: the pool stays open until it ends. */
    public void started() {
        inFlight.incrementAndGet();
    }

    /** A call on this link ended (however); the last one closes a retired pool. */
    public void ended() {
        if (inFlight.decrementAndGet() == 0 && retired.get()) {
            close();
        }
    }

    /** No new calls come; the pool closes now if idle, else when its last call ends. */
    void retire() {
        retired.set(true);
        if (inFlight.get() == 0) {
            close();
        }
    }

    private void close() {
        if (closed.compareAndSet(false, true)) {
            provider.disposeLater().subscribe();
        }
    }

    /**
     * Closes the pool at once, calls or not (App is stopping).
     *
     * @param wait how long to wait for the pool to close
     */
    void closeNow(Duration wait) {
        closed.set(true);
        provider.disposeLater().block(wait);
    }
}
