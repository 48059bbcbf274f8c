package dev.egress.app.fleet;

import dev.egress.app.resilience.BorderBreakers;
import dev.egress.app.resilience.BorderTraffic;
import dev.egress.app.resilience.Ejection;
import dev.egress.discovery.registry.BorderId;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.net.URI;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import reactor.netty.http.client.HttpClient;

/**
 * Everything App holds for one live Border, as one value: its link (opened on the first call), its circuit
 * breaker, its ejection state and its routes' traffic. {@link BorderFleet} creates it when the Border joins the
 * snapshot and retires it when the Border leaves; a Border that moves to another endpoint gets a new handle with
 * a new link and keeps its breaker, ejection and traffic.
 */
public final class BorderHandle {

    private final BorderId id;
    private final URI endpoint;
    private final @Nullable String unverifiable;
    private final CircuitBreaker breaker;
    private final Ejection ejection;
    private final BorderTraffic traffic;
    private final LinkFactory links;
    private volatile @Nullable BorderLink link;
    private volatile boolean retired;

    BorderHandle(
            BorderId id,
            URI endpoint,
            CircuitBreaker breaker,
            Ejection ejection,
            BorderTraffic traffic,
            LinkFactory links) {
        this.id = id;
        this.endpoint = endpoint;
        this.unverifiable = links.unverifiable(endpoint);
        this.breaker = breaker;
        this.ejection = ejection;
        this.traffic = traffic;
        this.links = links;
    }

    /** The same Border's state at another endpoint, with a link of its own. */
    BorderHandle movedTo(URI newEndpoint) {
        return new BorderHandle(id, newEndpoint, breaker, ejection, traffic, links);
    }

    /**
     * The Border.
     *
     * @return its id
     */
    public BorderId id() {
        return id;
    }

    /**
     * Where the Border's announcement says it listens.
     *
     * @return the endpoint
     */
    public URI endpoint() {
        return endpoint;
    }

    /**
     * Why this endpoint cannot be called with the configured trust: plaintext under mutual TLS, or https
     * without trust material to verify it.
     *
     * @return the reason, or null when the endpoint can be verified
     */
    public @Nullable String unverifiable() {
        return unverifiable;
    }

    /**
     * The Border's circuit breaker.
     *
     * @return the breaker
     */
    public CircuitBreaker breaker() {
        return breaker;
    }

    /**
     * The Border's passive-health state.
     *
     * @return its ejection
     */
    public Ejection ejection() {
        return ejection;
    }

    /**
     * The traffic of the Border's routes.
     *
     * @return per-IP traffic
     */
    public BorderTraffic traffic() {
        return traffic;
    }

    /**
     * Whether selection should prefer this Border now: not ejected, breaker not open, its link not silent.
     * A silent link is skipped here rather than tried and refused, so that a delivery does not spend a retry
     * of the budget on it; it takes traffic again as soon as it reads (or its silent connection is closed).
     *
     * @return true when healthy
     */
    public boolean takesTraffic() {
        BorderLink current = link;
        return ejection.isHealthy() && BorderBreakers.allows(breaker) && (current == null || !current.silent());
    }

    /**
     * The Border's link, opened on first use. Callers check {@link #unverifiable()} first: a link to an
     * endpoint that cannot be verified is never opened.
     *
     * @return the link; null once the handle is retired (the Border left or moved)
     */
    public @Nullable BorderLink link() {
        BorderLink current = link;
        return current != null && !retired ? current : open();
    }

    /**
     * The pooled client of the Border's link, with its TLS identity check and the internal token, for a call
     * other than a forward (a tunnel, for instance), which brackets itself with the link's
     * {@link BorderLink#started()} and {@link BorderLink#ended()}.
     *
     * @return the client; null once the handle is retired
     */
    public @Nullable HttpClient http() {
        BorderLink current = link();
        return current == null ? null : current.http();
    }

    // Under the lock retire() takes: a handle retired while its link opens leaves no pool behind.
    private synchronized @Nullable BorderLink open() {
        if (retired) {
            return null;
        }
        if (link == null) {
            link = links.open(id, endpoint);
        }
        return link;
    }

    /** No new call takes the link; it closes once its calls in flight end. */
    synchronized void retireLink() {
        retired = true;
        if (link != null) {
            link.retire();
        }
    }

    /** Closes the link at once (App is stopping). */
    synchronized void closeNow() {
        retired = true;
        if (link != null) {
            link.closeNow(Duration.ofSeconds(5));
        }
    }

    @Override
    public String toString() {
        return id + " at " + endpoint;
    }
}
