package dev.egress.border.decisions;

import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.DecisionStore;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads and writes a Border's decision record, ASCII JSON of at most {@link DecisionStore#MAX_BYTES} bytes:
 * <pre>{"version":1,"borderId":"border-a","decisions":{"127.0.0.3":"DISABLED"},"released":["127.0.0.4"]}</pre>
 * ({@code released}, the IPs an operator moved away, is written only when some are, and {@code sequence}, the
 * record's number in this Border's writes, only when above 0; both are optional on read.)
 * Decoding is strict: the version, the Border's own id, canonical IP literals as keys (one spelling per
 * address), exact status names, no duplicate keys, no trailing data. A record that breaks any rule is
 * unreadable, and an unreadable record makes the Border start with every IP {@code DISABLED}; so doubt never
 * turns into {@code ACTIVE}. Unknown top-level fields are ignored, so a newer Border can add some. Thread-safe.
 */
public final class OperatorDecisionsCodec {

    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    /**
     * Encodes decisions.
     *
     * @param decisions the decisions
     * @return the record
     * @throws InvalidDecisionsException if it would exceed {@link DecisionStore#MAX_BYTES}
     */
    public byte[] encode(OperatorDecisions decisions) {
        ObjectNode root = JSON.createObjectNode();
        root.put("version", OperatorDecisions.CURRENT_VERSION);
        root.put("borderId", decisions.borderId().value());
        ObjectNode entries = root.putObject("decisions");
        decisions.statuses().forEach((ip, status) -> entries.put(ip.value(), status.name()));
        if (decisions.sequence() > 0) {
            root.put("sequence", decisions.sequence());
        }
        if (!decisions.released().isEmpty()) {
            ArrayNode released = root.putArray("released");
            decisions.released().forEach(ip -> released.add(ip.value()));
        }
        byte[] bytes = JSON.writeValueAsBytes(root);
        if (bytes.length > DecisionStore.MAX_BYTES) {
            throw new InvalidDecisionsException(
                    "record", "%d bytes (expected: <= %d)".formatted(bytes.length, DecisionStore.MAX_BYTES));
        }
        return bytes;
    }

    /**
     * Decodes and validates a record.
     *
     * @param record   the stored bytes
     * @param expected the Border reading it: a record naming another Border is not this one's
     * @return the decisions
     * @throws InvalidDecisionsException naming the field and the rule for any violation
     */
    public OperatorDecisions decode(byte[] record, BorderId expected) {
        JsonNode root = parse(record);
        JsonNode version = root.get("version");
        if (version == null || !version.isIntegralNumber() || version.asLong() != OperatorDecisions.CURRENT_VERSION) {
            throw new InvalidDecisionsException(
                    "version", "%s (expected: %d)".formatted(version, OperatorDecisions.CURRENT_VERSION));
        }
        JsonNode borderId = root.get("borderId");
        if (borderId == null || !borderId.isString() || !borderId.asString().equals(expected.value())) {
            throw new InvalidDecisionsException("borderId", "%s (expected: \"%s\")".formatted(borderId, expected));
        }
        return new OperatorDecisions(
                expected,
                statuses(root.get("decisions")),
                released(root.get("released")),
                sequence(root.get("sequence")));
    }

    private static long sequence(JsonNode node) {
        if (node == null) {
            return 0;
        }
        if (!node.isIntegralNumber() || !node.canConvertToLong() || node.asLong() < 0) {
            throw new InvalidDecisionsException("sequence", "%s (expected: a whole number >= 0)".formatted(node));
        }
        return node.asLong();
    }

    private static Set<EgressIp> released(JsonNode node) {
        if (node == null) {
            return Set.of();
        }
        if (!node.isArray() || node.size() > Announcement.MAX_IPS) {
            throw new InvalidDecisionsException(
                    "released", "%s (expected: an array of at most %d IPs)".formatted(node, Announcement.MAX_IPS));
        }
        Set<EgressIp> released = new TreeSet<>();
        for (int i = 0; i < node.size(); i++) {
            JsonNode entry = node.get(i);
            String field = "released[" + i + "]";
            EgressIp ip;
            try {
                ip = new EgressIp(entry.isString() ? entry.asString() : "");
            } catch (IllegalArgumentException e) {
                throw new InvalidDecisionsException(field, "not a canonical IP literal");
            }
            if (!released.add(ip)) {
                throw new InvalidDecisionsException(field, "%s twice (expected: each IP once)".formatted(ip));
            }
        }
        return released;
    }

    private static JsonNode parse(byte[] record) {
        if (record == null || record.length == 0) {
            throw new InvalidDecisionsException("record", "empty (expected: a JSON object)");
        }
        if (record.length > DecisionStore.MAX_BYTES) {
            throw new InvalidDecisionsException(
                    "record", "%d bytes (expected: <= %d)".formatted(record.length, DecisionStore.MAX_BYTES));
        }
        for (byte b : record) {
            // Every field is ASCII; a NUL or a non-ASCII byte means another encoding or damage.
            if (b <= 0) {
                throw new InvalidDecisionsException("record", "a NUL or non-ASCII byte (expected: ASCII JSON)");
            }
        }
        JsonNode root;
        try {
            root = JSON.readTree(record);
        } catch (JacksonException e) {
            throw new InvalidDecisionsException("record", "not JSON (" + e.getOriginalMessage() + ")");
        }
        if (root == null || !root.isObject()) {
            throw new InvalidDecisionsException("record", "not a JSON object");
        }
        return root;
    }

    private static Map<EgressIp, IpStatus> statuses(JsonNode node) {
        if (node == null || !node.isObject()) {
            throw new InvalidDecisionsException(
                    "decisions", "%s (expected: an object of ip to status)".formatted(node == null ? "missing" : node));
        }
        if (node.size() > Announcement.MAX_IPS) {
            throw new InvalidDecisionsException(
                    "decisions", "%d entries (expected: <= %d)".formatted(node.size(), Announcement.MAX_IPS));
        }
        Map<EgressIp, IpStatus> statuses = new TreeMap<>();
        Iterator<Map.Entry<String, JsonNode>> entries = node.properties().iterator();
        while (entries.hasNext()) {
            Map.Entry<String, JsonNode> entry = entries.next();
            String field = "decisions." + entry.getKey();
            EgressIp ip;
            try {
                ip = new EgressIp(entry.getKey()); // canonical only: one spelling per address
            } catch (IllegalArgumentException e) {
                throw new InvalidDecisionsException(field, "not a canonical IP literal");
            }
            statuses.put(ip, status(entry.getValue(), field));
        }
        return statuses;
    }

    private static IpStatus status(JsonNode value, String field) {
        if (value != null && value.isString()) {
            for (IpStatus status : IpStatus.values()) {
                if (status.name().equals(value.asString())) {
                    return status;
                }
            }
        }
        throw new InvalidDecisionsException(field, "%s (expected: %s)".formatted(value, IpStatus.choices()));
    }
}
