package dev.egress.discovery.trust;

import dev.egress.discovery.registry.AnnouncementCodec;
import dev.egress.discovery.registry.InvalidAnnouncementException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The owner data of a signing Border: the exact announcement bytes, a signature over them, and the
 * signer's certificate chain (DER, leaf first), as UTF-8 JSON of at most
 * {@link AnnouncementCodec#MAX_BYTES}:
 * <pre>{"payload":"&lt;base64 announcement JSON&gt;","signature":"&lt;base64&gt;","chain":["&lt;base64 DER&gt;",...]}</pre>
 * The signature covers the payload bytes as carried, so App acts on exactly what was signed; no
 * canonical JSON is needed. Unknown fields are ignored, as in the announcement itself.
 *
 * @param payload   the announcement JSON
 * @param signature the signature over {@code payload}
 * @param chain     DER certificates, leaf first
 */
record SignedEnvelope(byte[] payload, byte[] signature, List<byte[]> chain) {

    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    /** Chains are short; a long one is an attempt to make App work. */
    static final int MAX_CHAIN = 5;

    SignedEnvelope {
        chain = List.copyOf(chain);
    }

    byte[] encode() {
        ObjectNode root = JSON.createObjectNode();
        Base64.Encoder base64 = Base64.getEncoder();
        root.put("payload", base64.encodeToString(payload));
        root.put("signature", base64.encodeToString(signature));
        ArrayNode certificates = root.putArray("chain");
        chain.forEach(der -> certificates.add(base64.encodeToString(der)));
        byte[] bytes = JSON.writeValueAsBytes(root);
        if (bytes.length > AnnouncementCodec.MAX_BYTES) {
            throw new InvalidAnnouncementException(
                    "payload",
                    "%d bytes signed (expected: <= %d)".formatted(bytes.length, AnnouncementCodec.MAX_BYTES));
        }
        return bytes;
    }

    /**
     * Whether owner data looks like an envelope (a JSON object with a {@code payload} field), without
     * judging anything else.
     */
    static boolean looksSigned(JsonNode root) {
        return root != null && root.isObject() && root.has("payload");
    }

    static JsonNode parse(byte[] data) {
        if (data == null || data.length == 0) {
            throw new InvalidAnnouncementException("payload", "empty (expected: a JSON object)");
        }
        if (data.length > AnnouncementCodec.MAX_BYTES) {
            throw new InvalidAnnouncementException(
                    "payload", "%d bytes (expected: <= %d)".formatted(data.length, AnnouncementCodec.MAX_BYTES));
        }
        for (byte b : data) {
            if (b <= 0) {
                // Envelopes are base64 in ASCII JSON; anything else is not one of ours.
                throw new InvalidAnnouncementException("payload", "non-ASCII bytes (expected: ASCII JSON)");
            }
        }
        try {
            return JSON.readTree(data);
        } catch (JacksonException e) {
            throw new InvalidAnnouncementException("payload", "not JSON (" + e.getOriginalMessage() + ")");
        }
    }

    static SignedEnvelope decode(JsonNode root) {
        byte[] payload = base64(root, "payload");
        byte[] signature = base64(root, "signature");
        JsonNode chain = root.get("chain");
        if (chain == null || !chain.isArray() || chain.isEmpty() || chain.size() > MAX_CHAIN) {
            throw new InvalidAnnouncementException(
                    "chain",
                    "%s (expected: 1..%d base64 DER certificates, leaf first)"
                            .formatted(
                                    chain == null
                                            ? "missing"
                                            : chain.isArray() ? chain.size() + " entries" : "not an array",
                                    MAX_CHAIN));
        }
        List<byte[]> certificates = new ArrayList<>(chain.size());
        for (int i = 0; i < chain.size(); i++) {
            JsonNode entry = chain.get(i);
            if (!entry.isString()) {
                throw new InvalidAnnouncementException("chain[" + i + "]", "not a string (expected: base64 DER)");
            }
            certificates.add(base64(entry.asString(), "chain[" + i + "]"));
        }
        return new SignedEnvelope(payload, signature, certificates);
    }

    private static byte[] base64(JsonNode root, String field) {
        JsonNode node = root.get(field);
        if (node == null || !node.isString()) {
            throw new InvalidAnnouncementException(field, node == null ? "missing" : "not a string (expected: base64)");
        }
        return base64(node.asString(), field);
    }

    private static byte[] base64(String text, String field) {
        try {
            return Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw new InvalidAnnouncementException(field, "not base64");
        }
    }
}
