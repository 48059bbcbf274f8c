package dev.egress.discovery;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads and writes the registry payload (UTF-8 JSON, at most {@value #MAX_BYTES} bytes). Decoding is
 * strict about every known field and ignores unknown ones, so a newer Border can add fields without
 * breaking older Apps. Thread-safe.
 */
public final class AnnouncementCodec {

    /** Largest payload accepted or produced. */
    public static final int MAX_BYTES = 64 * 1024;

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * Encodes an announcement.
     *
     * @param announcement a valid announcement
     * @return UTF-8 JSON
     * @throws InvalidAnnouncementException if the encoding exceeds {@value #MAX_BYTES} bytes
     */
    public byte[] encode(Announcement announcement) {
        ObjectNode root = JSON.createObjectNode();
        root.put("version", announcement.version());
        root.put("borderId", announcement.borderId().value());
        root.put("endpoint", announcement.endpoint().toString());
        ArrayNode ips = root.putArray("ips");
        for (AnnouncedIp ip : announcement.ips()) {
            ips.addObject().put("ip", ip.ip().value()).put("status", ip.status().name());
        }
        root.put("publishedAt", announcement.publishedAt().toString());
        root.put("generation", announcement.generation());
        byte[] bytes = JSON.writeValueAsBytes(root);
        if (bytes.length > MAX_BYTES) {
            throw new InvalidAnnouncementException("payload", "%d bytes (expected: <= %d)".formatted(bytes.length, MAX_BYTES));
        }
        return bytes;
    }

    /**
     * Decodes and validates a payload.
     *
     * @param payload owner data from the registry
     * @return the announcement
     * @throws InvalidAnnouncementException naming the field and rule for any violation
     */
    public Announcement decode(byte[] payload) {
        if (payload == null || payload.length == 0) {
            throw new InvalidAnnouncementException("payload", "empty (expected: a JSON object)");
        }
        if (payload.length > MAX_BYTES) {
            throw new InvalidAnnouncementException("payload", "%d bytes (expected: <= %d)".formatted(payload.length, MAX_BYTES));
        }
        JsonNode root;
        try {
            root = JSON.readTree(new String(payload, StandardCharsets.UTF_8));
        } catch (JacksonException e) {
            throw new InvalidAnnouncementException("payload", "not JSON (" + e.getOriginalMessage() + ")");
        }
        if (root == null || !root.isObject()) {
            throw new InvalidAnnouncementException("payload", "not a JSON object");
        }
        int version = (int) integer(root, "version", 0, Integer.MAX_VALUE);
        BorderId borderId = borderId(text(root, "borderId"));
        URI endpoint = endpoint(text(root, "endpoint"));
        List<AnnouncedIp> ips = ips(root.get("ips"));
        Instant publishedAt = instant(text(root, "publishedAt"));
        long generation = integer(root, "generation", Long.MIN_VALUE, Long.MAX_VALUE);
        return new Announcement(version, borderId, endpoint, ips, publishedAt, generation);
    }

    private static List<AnnouncedIp> ips(JsonNode node) {
        if (node == null || node.isNull()) {
            throw new InvalidAnnouncementException("ips", "missing");
        }
        if (!node.isArray()) {
            throw new InvalidAnnouncementException("ips", "not an array");
        }
        if (node.size() > Announcement.MAX_IPS) {
            throw new InvalidAnnouncementException("ips", "%d entries (expected: 1..%d)".formatted(node.size(), Announcement.MAX_IPS));
        }
        List<AnnouncedIp> ips = new ArrayList<>(node.size());
        for (int i = 0; i < node.size(); i++) {
            JsonNode entry = node.get(i);
            String field = "ips[" + i + "]";
            if (!entry.isObject()) {
                throw new InvalidAnnouncementException(field, "not an object");
            }
            EgressIp ip;
            try {
                ip = EgressIp.of(text(entry, field + ".ip", "ip"));
            } catch (IllegalArgumentException e) {
                throw new InvalidAnnouncementException(field + ".ip", e.getMessage());
            }
            String status = text(entry, field + ".status", "status");
            try {
                ips.add(new AnnouncedIp(ip, IpStatus.valueOf(status)));
            } catch (IllegalArgumentException e) {
                throw new InvalidAnnouncementException(field + ".status",
                        "'%s' (expected: ACTIVE, DRAINING or DISABLED)".formatted(status));
            }
        }
        return ips;
    }

    private static String text(JsonNode parent, String name) {
        return text(parent, name, name);
    }

    private static String text(JsonNode parent, String field, String name) {
        JsonNode node = parent.get(name);
        if (node == null || node.isNull()) {
            throw new InvalidAnnouncementException(field, "missing");
        }
        if (!node.isString()) {
            throw new InvalidAnnouncementException(field, "not a string");
        }
        return node.asString();
    }

    private static long integer(JsonNode parent, String name, long min, long max) {
        JsonNode node = parent.get(name);
        if (node == null || node.isNull()) {
            throw new InvalidAnnouncementException(name, "missing");
        }
        if (!node.isIntegralNumber() || !node.canConvertToLong()) {
            throw new InvalidAnnouncementException(name, "'%s' (expected: an integer)".formatted(node));
        }
        long value = node.asLong();
        if (value < min || value > max) {
            throw new InvalidAnnouncementException(name, "%d (expected: %d..%d)".formatted(value, min, max));
        }
        return value;
    }

    private static BorderId borderId(String value) {
        try {
            return BorderId.of(value);
        } catch (IllegalArgumentException e) {
            throw new InvalidAnnouncementException("borderId", "'%s' (expected: [a-z0-9][a-z0-9-]{0,62})".formatted(value));
        }
    }

    private static URI endpoint(String value) {
        try {
            return new URI(value);
        } catch (URISyntaxException e) {
            throw new InvalidAnnouncementException("endpoint", "'%s' (expected: an absolute http(s) URL)".formatted(value));
        }
    }

    private static Instant instant(String value) {
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw new InvalidAnnouncementException("publishedAt", "'%s' (expected: ISO-8601 instant)".formatted(value));
        }
    }
}
