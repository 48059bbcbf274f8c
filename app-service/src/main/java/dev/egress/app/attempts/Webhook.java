package dev.egress.app.attempts;

import dev.egress.app.routing.Resolution;
import java.util.Map;

/**
 * A webhook to deliver, as the attempt engine sees it: no HTTP request of App's API, only what every attempt sends
 * and through which candidates. A delivery answered at once and one scheduled for later are the same value.
 *
 * @param deliveryId the delivery's id, sent to the Border with every attempt
 * @param resolution the tenant's candidates
 * @param url        the target URL
 * @param method     the HTTP method
 * @param headers    the webhook's headers
 * @param body       the body's bytes (not copied)
 */
public record Webhook(
        String deliveryId, Resolution resolution, String url, String method, Map<String, String> headers, byte[] body) {

    /** Copies the headers. */
    public Webhook {
        headers = Map.copyOf(headers);
    }

    /** The tenant that sends it. */
    public String tenantId() {
        return resolution.tenant().id();
    }

    /**
     * The hash a stable strategy keys on: tenant and URL, so one target's webhooks keep to one Border.
     *
     * @return the key
     */
    long key() {
        long z = tenantId().hashCode() * 31L + url.hashCode();
        // SplitMix64 finaliser: spreads String hash codes over 64 bits for rendezvous hashing.
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
