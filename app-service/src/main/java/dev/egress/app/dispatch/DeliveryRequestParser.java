package dev.egress.app.dispatch;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads and validates a delivery request from raw bytes, so that every malformed input — not JSON,
 * wrong types, missing fields, bad URL or method, bad headers — becomes a 400 naming the field, never a
 * 5xx. Unknown fields are refused with a 400 naming them: a misspelt {@code "header"} must not silently
 * drop a signature header. {@code GET} and {@code DELETE} may omit the payload (or give {@code null}):
 * then no body is sent. Destination vetting (SSRF) is the Border's job: it is the hop that sees the
 * resolved address.
 */
final class DeliveryRequestParser {

    private static final Set<String> METHODS = Set.of("POST", "PUT", "PATCH", "DELETE", "GET");
    /** Methods whose requests usually carry no body: the payload may be omitted or null for them. */
    private static final Set<String> BODY_OPTIONAL = Set.of("GET", "DELETE");

    private static final List<String> FIELDS = List.of("tenantId", "url", "method", "headers", "payload");
    private static final Pattern TENANT_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");
    private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}");
    private static final Set<String> RESERVED_HEADERS = Set.of(
            "host",
            "content-length",
            "transfer-encoding",
            "connection",
            "keep-alive",
            "upgrade",
            "te",
            "trailer",
            "proxy-authorization",
            "proxy-connection");
    private static final int MAX_URL = 2048;
    private static final int MAX_HEADERS = 64;
    private static final int MAX_HEADER_VALUE = 8192;

    private final JsonMapper json = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    DeliveryRequest parse(byte[] body) {
        if (body.length == 0) {
            throw new InvalidRequestException("body", "empty (expected: a JSON object)");
        }
        JsonNode root;
        try {
            root = json.readTree(body);
        } catch (JacksonException e) {
            throw new InvalidRequestException("body", "not valid JSON (" + e.getOriginalMessage() + ")");
        }
        if (root == null || !root.isObject()) {
            throw new InvalidRequestException("body", "expected a JSON object");
        }
        for (Map.Entry<String, JsonNode> property : root.properties()) {
            String field = property.getKey();
            if (!FIELDS.contains(field)) {
                throw new InvalidRequestException(
                        truncate(field), "unknown field (expected: one of %s)".formatted(FIELDS));
            }
        }
        String tenantId = requiredString(root, "tenantId");
        if (!TENANT_ID.matcher(tenantId).matches()) {
            throw new InvalidRequestException("tenantId", "expected 1..128 of [A-Za-z0-9._-], starting alphanumeric");
        }
        String url = url(requiredString(root, "url"));
        String method = method(root.get("method"));
        Map<String, String> headers = headers(root.get("headers"));
        JsonNode payload = root.get("payload");
        if (payload == null || payload.isNull() && BODY_OPTIONAL.contains(method)) {
            if (!BODY_OPTIONAL.contains(method)) {
                throw new InvalidRequestException(
                        "payload", "missing (expected: any JSON value; only GET and DELETE " + "may omit it)");
            }
            return new DeliveryRequest(tenantId, url, method, headers, null);
        }
        return new DeliveryRequest(tenantId, url, method, headers, json.writeValueAsString(payload));
    }

    private static String requiredString(JsonNode root, String field) {
        JsonNode node = root.get(field);
        if (node == null || node.isNull()) {
            throw new InvalidRequestException(field, "missing");
        }
        if (!node.isString()) {
            throw new InvalidRequestException(field, "expected a string");
        }
        return node.stringValue();
    }

    private static String url(String text) {
        if (text.length() > MAX_URL) {
            throw new InvalidRequestException("url", "longer than %d characters".formatted(MAX_URL));
        }
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            throw new InvalidRequestException("url", "not a valid URI (" + e.getReason() + ")");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!uri.isAbsolute() || !(scheme.equals("http") || scheme.equals("https"))) {
            throw new InvalidRequestException("url", "expected an absolute http or https URL");
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            // java.net.URI leaves the host null for authorities it cannot read as a server name, such as the
            // shorthand 127.1 or an IPv6 literal without brackets: say which forms are accepted.
            throw new InvalidRequestException(
                    "url",
                    "'%s' has no usable host (expected: a DNS name, a dotted IPv4 "
                                    .formatted(truncate(uri.getRawAuthority() == null ? text : uri.getRawAuthority()))
                            + "address with four parts, or an IPv6 address in brackets)");
        }
        if (uri.getRawUserInfo() != null) {
            throw new InvalidRequestException("url", "credentials in the URL are not allowed (use headers)");
        }
        if (uri.getRawFragment() != null) {
            throw new InvalidRequestException("url", "fragments are not sent to servers (remove '#...')");
        }
        return text;
    }

    private static String method(JsonNode node) {
        if (node == null || node.isNull()) {
            return "POST";
        }
        if (!node.isString()) {
            throw new InvalidRequestException("method", "expected a string");
        }
        String method = node.stringValue();
        if (!METHODS.contains(method)) {
            throw new InvalidRequestException(
                    "method", "'%s' (expected: one of %s)".formatted(truncate(method), METHODS));
        }
        return method;
    }

    private static Map<String, String> headers(JsonNode node) {
        if (node == null || node.isNull()) {
            return Map.of();
        }
        if (!node.isObject()) {
            throw new InvalidRequestException("headers", "expected an object of string values");
        }
        if (node.size() > MAX_HEADERS) {
            throw new InvalidRequestException("headers", "more than %d entries".formatted(MAX_HEADERS));
        }
        Map<String, String> headers = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            String name = entry.getKey();
            if (!HEADER_NAME.matcher(name).matches()) {
                throw new InvalidRequestException(
                        "headers", "'%s' is not a valid header name".formatted(truncate(name)));
            }
            if (RESERVED_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
                throw new InvalidRequestException("headers." + name, "set by the transport (expected: not given)");
            }
            JsonNode value = entry.getValue();
            if (!value.isString()) {
                throw new InvalidRequestException("headers." + name, "expected a string");
            }
            String text = value.stringValue();
            if (text.length() > MAX_HEADER_VALUE || text.chars().anyMatch(c -> c == '\r' || c == '\n' || c == 0)) {
                throw new InvalidRequestException(
                        "headers." + name,
                        "expected at most %d characters without CR, LF or NUL".formatted(MAX_HEADER_VALUE));
            }
            headers.put(name, text);
        }
        return headers;
    }

    private static String truncate(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }
}
