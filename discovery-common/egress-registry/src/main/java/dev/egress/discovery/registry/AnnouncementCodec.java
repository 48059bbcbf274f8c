package dev.egress.discovery.registry;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
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

    // Duplicate keys and trailing data are ambiguous ("which borderId is it?"), so they are errors
    // rather than last-one-wins.
    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

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
            ObjectNode entry = ips.addObject().put("ip", ip.ip().value());
            if (ip.translated()) {
                entry.put("bind", ip.bind().value()); // omitted without NAT: older Apps see the same bytes
            }
            entry.put("status", ip.status().name());
            if (ip.reason() != null) {
                entry.put("reason", ip.reason()); // omitted unless withheld by the Border: same bytes as before
            }
        }
        root.put("publishedAt", announcement.publishedAt().toString());
        root.put("generation", announcement.generation());
        if (announcement.validFor() != null) {
            root.put("validFor", announcement.validFor().toString()); // omitted without one: the plain form
        }
        byte[] bytes = JSON.writeValueAsBytes(root);
        if (bytes.length > MAX_BYTES) {
            throw new InvalidAnnouncementException(
                    "payload", "%d bytes (expected: <= %d)".formatted(bytes.length, MAX_BYTES));
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
            throw new InvalidAnnouncementException(
                    "payload", "%d bytes (expected: <= %d)".formatted(payload.length, MAX_BYTES));
        }
        JsonNode root;
        try {
            root = JSON.readTree(requireUtf8(payload));
        } catch (JacksonException e) {
            throw new InvalidAnnouncementException("payload", "not JSON (" + e.getOriginalMessage() + ")");
        }
        if (root == null || !root.isObject()) {
            throw new InvalidAnnouncementException("payload", "not a JSON object");
        }
        long version = integer(root, "version", Long.MIN_VALUE, Long.MAX_VALUE);
        if (version != Announcement.CURRENT_VERSION) {
            throw new InvalidAnnouncementException(
                    "version", "%d (expected: %d)".formatted(version, Announcement.CURRENT_VERSION));
        }
        BorderId borderId = borderId(text(root, "borderId"));
        URI endpoint = endpoint(text(root, "endpoint"));
        List<AnnouncedIp> ips = ips(root.get("ips"));
        Instant publishedAt = instant(text(root, "publishedAt"));
        long generation = integer(root, "generation", 0, Long.MAX_VALUE);
        JsonNode window = root.get("validFor");
        Duration validFor = window == null || window.isNull() ? null : duration(text(root, "validFor"));
        return new Announcement((int) version, borderId, endpoint, ips, publishedAt, generation, validFor);
    }

    /**
     * Checks the bytes are well-formed UTF-8 (a lenient decoder would turn broken bytes into U+FFFD
     * and accept them). Payloads are ASCII in practice, so the strict decoder runs only when a byte
     * outside ASCII shows up. A NUL byte never occurs in UTF-8 JSON but always in UTF-16/32 text,
     * which Jackson would otherwise detect and accept.
     */
    private static byte[] requireUtf8(byte[] payload) {
        boolean ascii = true;
        for (byte b : payload) {
            if (b == 0) {
                throw new InvalidAnnouncementException("payload", "contains NUL bytes (expected: UTF-8 JSON)");
            }
            ascii &= b > 0;
        }
        if (!ascii) {
            try {
                StandardCharsets.UTF_8
                        .newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT)
                        .decode(ByteBuffer.wrap(payload));
            } catch (CharacterCodingException e) {
                throw new InvalidAnnouncementException("payload", "not valid UTF-8 (expected: UTF-8 JSON)");
            }
        }
        return payload;
    }

    private static List<AnnouncedIp> ips(JsonNode node) {
        if (node == null || node.isNull()) {
            throw new InvalidAnnouncementException("ips", "missing");
        }
        if (!node.isArray()) {
            throw new InvalidAnnouncementException("ips", "not an array");
        }
        if (node.isEmpty() || node.size() > Announcement.MAX_IPS) {
            throw new InvalidAnnouncementException(
                    "ips", "%d entries (expected: 1..%d)".formatted(node.size(), Announcement.MAX_IPS));
        }
        List<AnnouncedIp> ips = new ArrayList<>(node.size());
        for (int i = 0; i < node.size(); i++) {
            JsonNode entry = node.get(i);
            String field = "ips[" + i + "]";
            if (!entry.isObject()) {
                throw new InvalidAnnouncementException(field, "not an object");
            }
            EgressIp ip = address(entry, field, "ip");
            EgressIp bind = ip;
            JsonNode bindNode = entry.get("bind");
            if (bindNode != null && !bindNode.isNull()) {
                bind = address(entry, field, "bind");
            }
            String status = text(entry, field + ".status", "status");
            IpStatus parsed;
            try {
                parsed = IpStatus.valueOf(status);
            } catch (IllegalArgumentException e) {
                throw new InvalidAnnouncementException(
                        field + ".status",
                        "%s (expected: %s)".formatted(InvalidAnnouncementException.quoted(status), IpStatus.choices()));
            }
            String reason = null;
            JsonNode reasonNode = entry.get("reason");
            if (reasonNode != null && !reasonNode.isNull()) {
                reason = text(entry, field + ".reason", "reason");
            }
            try {
                ips.add(new AnnouncedIp(ip, bind, parsed, reason));
            } catch (IllegalArgumentException e) {
                throw new InvalidAnnouncementException(
                        field + ".reason", e.getMessage().replaceFirst("^reason: ", ""));
            }
        }
        return ips;
    }

    /**
     * An entry's {@code ip} or {@code bind}: a strict literal that can be one socket's source. The unspecified
     * and multicast addresses never can, whoever signed them; loopback stays allowed here (the local platform
     * uses it), the Border refuses it outside local runs.
     */
    private static EgressIp address(JsonNode entry, String field, String name) {
        EgressIp ip;
        try {
            ip = EgressIp.of(text(entry, field + "." + name, name));
        } catch (IllegalArgumentException e) {
            throw new InvalidAnnouncementException(field + "." + name, e.getMessage());
        }
        if (ip.isUnspecified() || ip.isMulticast()) {
            throw new InvalidAnnouncementException(
                    field + "." + name,
                    "%s is %s (expected: a unicast address)"
                            .formatted(ip, ip.isUnspecified() ? "unspecified" : "multicast"));
        }
        return ip;
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
            throw new InvalidAnnouncementException(
                    field, "%s (expected: a string)".formatted(InvalidAnnouncementException.quoted(node)));
        }
        return node.asString();
    }

    private static long integer(JsonNode parent, String name, long min, long max) {
        JsonNode node = parent.get(name);
        if (node == null || node.isNull()) {
            throw new InvalidAnnouncementException(name, "missing");
        }
        if (!node.isIntegralNumber() || !node.canConvertToLong()) {
            String range = min == Long.MIN_VALUE ? "" : " %d..%d".formatted(min, max);
            throw new InvalidAnnouncementException(
                    name, "%s (expected: an integer%s)".formatted(InvalidAnnouncementException.quoted(node), range));
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
            throw new InvalidAnnouncementException(
                    "borderId",
                    "%s (expected: [a-z0-9][a-z0-9-]{0,62})".formatted(InvalidAnnouncementException.quoted(value)));
        }
    }

    private static URI endpoint(String value) {
        try {
            return new URI(value);
        } catch (URISyntaxException e) {
            throw new InvalidAnnouncementException(
                    "endpoint",
                    "%s (expected: an absolute http(s) URL)".formatted(InvalidAnnouncementException.quoted(value)));
        }
    }

    private static Duration duration(String value) {
        try {
            return Duration.parse(value);
        } catch (DateTimeParseException e) {
            throw new InvalidAnnouncementException(
                    "validFor",
                    "%s (expected: an ISO-8601 duration such as PT5M)"
                            .formatted(InvalidAnnouncementException.quoted(value)));
        }
    }

    private static Instant instant(String value) {
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw new InvalidAnnouncementException(
                    "publishedAt",
                    "%s (expected: an ISO-8601 instant such as 2026-11-30T10:15:30.123Z)"
                            .formatted(InvalidAnnouncementException.quoted(value)));
        }
    }
}
