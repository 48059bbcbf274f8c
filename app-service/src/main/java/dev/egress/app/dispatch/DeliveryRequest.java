package dev.egress.app.dispatch;

import dev.egress.discovery.files.hash.Sha256;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.TreeMap;

/**
 * A validated {@code POST /v1/deliveries} body.
 *
 * @param tenantId the tenant
 * @param url      the absolute http(s) target URL
 * @param method   upper-case HTTP method
 * @param headers  headers for the target, with a {@code Content-Type} whenever there is a body
 * @param body     the bytes the target receives, exactly as the caller gave them (the {@code payload}'s JSON
 *                 text sliced out of the request, or the decoded {@code body}/{@code bodyBase64}); null means
 *                 no body (GET or DELETE without one). Never modified after parsing: it travels to the Border
 *                 without a copy
 */
public record DeliveryRequest(String tenantId, String url, String method, Map<String, String> headers, byte[] body) {

    /**
     * A digest of what the target would receive — URL, method, headers (in name order) and the body's bytes — for {@code Idempotency-Key}: a repeat that spells the same request
     * differently (field order, whitespace outside the payload, {@code body} or {@code bodyBase64}) is the
     * same request; one byte more in the body is another.
     *
     * @return SHA-256 over the length-prefixed parts
     */
    public byte[] fingerprint() {
        MessageDigest digest = Sha256.digest();
        part(digest, url.getBytes(StandardCharsets.UTF_8));
        part(digest, method.getBytes(StandardCharsets.UTF_8));
        Map<String, String> sorted = new TreeMap<>();
        // Names as given: the target sees them as given.
        sorted.putAll(headers);
        sorted.forEach((name, value) -> {
            part(digest, name.getBytes(StandardCharsets.UTF_8));
            part(digest, value.getBytes(StandardCharsets.UTF_8));
        });
        // -1 for "no body", so that no body and an empty body differ.
        digest.update(lengthOf(body == null ? -1 : body.length));
        if (body != null) {
            digest.update(body);
        }
        return digest.digest();
    }

    private static void part(MessageDigest digest, byte[] bytes) {
        digest.update(lengthOf(bytes.length));
        digest.update(bytes);
    }

    private static byte[] lengthOf(int length) {
        return new byte[] {(byte) (length >>> 24), (byte) (length >>> 16), (byte) (length >>> 8), (byte) length};
    }
}
