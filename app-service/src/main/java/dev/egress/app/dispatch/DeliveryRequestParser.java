package dev.egress.app.dispatch;

import dev.egress.discovery.web.forward.HeaderFields;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads and validates a delivery request from raw bytes, so that every malformed input — not JSON,
 * wrong types, missing fields, bad URL or method, bad headers — becomes a 400 naming the field, never a
 * 5xx. Unknown fields are refused with a 400 naming them: a misspelt {@code "header"} must not silently
 * drop a signature header. {@code GET} and {@code DELETE} may omit the body (or give a null payload):
 * then no body is sent. Destination vetting (SSRF) is the Border's job: it is the hop that sees the
 * resolved address.
 *
 * <p>The body is one of three forms. {@code payload} is any JSON value, and the target receives its bytes
 * exactly as they stand in the request: the parser streams over the request once and slices the value out
 * by its token offsets, without building or re-encoding it, so {@code 1.10}, {@code 1E+2}, escapes and
 * whitespace arrive unchanged (and a signature over them still holds). {@code body} is a text sent as its
 * UTF-8 bytes, {@code bodyBase64} any bytes. Without a caller's {@code Content-Type} each form gets its
 * natural one.
 */
public final class DeliveryRequestParser {

    private static final Set<String> METHODS = Set.of("POST", "PUT", "PATCH", "DELETE", "GET");
    /** Methods whose requests usually carry no body: the body may be omitted (or the payload null) for them. */
    private static final Set<String> BODY_OPTIONAL = Set.of("GET", "DELETE");

    private static final List<String> FIELDS =
            List.of("tenantId", "url", "method", "headers", "payload", "body", "bodyBase64");
    /** The body forms, in the order a 400 names them; at most one per request. */
    private static final List<String> BODY_FIELDS = List.of("payload", "body", "bodyBase64");
    /** {@code Content-Type} when the caller gives none, per body form. */
    private static final Map<String, String> DEFAULT_TYPES = Map.of(
            "payload", "application/json",
            "body", "text/plain; charset=utf-8",
            "bodyBase64", "application/octet-stream");

    private static final Pattern TENANT_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");
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
    private static final int MAX_HEADER_NAME = 128;
    private static final int MAX_HEADER_VALUE = 8192;

    private final JsonMapper json = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            // The small fields are read as trees out of the one stream, so what follows each is not "trailing";
            // the end of the whole request is checked after the object instead.
            .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    /** Creates a parser (stateless; one serves every request). */
    public DeliveryRequestParser() {}

    /**
     * Parses and validates a {@code POST /v1/deliveries} body; the durable path parses a stored body again with it.
     *
     * @param request the body's bytes
     * @return the validated request
     * @throws InvalidRequestException naming the field that breaks a rule
     */
    public DeliveryRequest parse(byte[] request) {
        if (request.length == 0) {
            throw new InvalidRequestException("body", "empty (expected: a JSON object)");
        }
        Fields fields;
        try (JsonParser parser = json.createParser(request)) {
            fields = fields(parser, request);
        } catch (JacksonException e) {
            throw new InvalidRequestException("body", "not valid JSON (" + e.getOriginalMessage() + ")");
        }
        String tenantId = requiredString(fields.values, "tenantId");
        if (!TENANT_ID.matcher(tenantId).matches()) {
            throw new InvalidRequestException("tenantId", "expected 1..128 of [A-Za-z0-9._-], starting alphanumeric");
        }
        String url = url(requiredString(fields.values, "url"));
        String method = method(fields.values.get("method"));
        Map<String, String> headers = headers(fields.values.get("headers"));
        List<String> forms = BODY_FIELDS.stream().filter(fields::has).toList();
        if (forms.size() > 1) {
            throw new InvalidRequestException(
                    String.join(",", forms), "give one body form (expected: one of %s)".formatted(BODY_FIELDS));
        }
        byte[] body = forms.isEmpty() ? null : body(forms.get(0), fields, request, method);
        if (body == null) {
            if (!BODY_OPTIONAL.contains(method)) {
                throw new InvalidRequestException(
                        "payload",
                        "missing (expected: any JSON value, or body or bodyBase64; only GET and DELETE may omit it)");
            }
            return new DeliveryRequest(tenantId, url, method, headers, null);
        }
        if (headers.keySet().stream().noneMatch("content-type"::equalsIgnoreCase)) {
            headers.put("Content-Type", DEFAULT_TYPES.get(forms.get(0)));
        }
        return new DeliveryRequest(tenantId, url, method, headers, body);
    }

    /** The top-level fields: a tree for each small one, only the offsets of the payload. */
    private Fields fields(JsonParser parser, byte[] request) {
        if (parser.nextToken() != JsonToken.START_OBJECT) {
            throw new InvalidRequestException("body", "expected a JSON object");
        }
        Fields fields = new Fields();
        JsonToken token = parser.nextToken();
        while (token == JsonToken.PROPERTY_NAME) {
            String field = parser.currentName();
            if (!FIELDS.contains(field)) {
                throw new InvalidRequestException(
                        truncate(field), "unknown field (expected: one of %s)".formatted(FIELDS));
            }
            JsonToken value = parser.nextToken();
            if (field.equals("payload")) {
                fields.payloadStart = offset(parser);
                fields.payloadNull = value == JsonToken.VALUE_NULL;
                // Skipping still tokenises, so a malformed or too deeply nested payload is refused here.
                parser.skipChildren();
                token = parser.nextToken();
                // The payload ends where the next token starts, less the whitespace and comma between them.
                fields.payloadEnd = valueEnd(request, offset(parser));
            } else {
                fields.values.put(field, json.readTree(parser));
                token = parser.nextToken();
            }
        }
        if (parser.nextToken() != null) {
            throw new InvalidRequestException("body", "not valid JSON (trailing content after the object)");
        }
        return fields;
    }

    private static long offset(JsonParser parser) {
        long offset = parser.currentTokenLocation().getByteOffset();
        if (offset < 0) {
            // Jackson reads UTF-16 and UTF-32 with a character reader that has no byte offsets.
            throw new InvalidRequestException("body", "not UTF-8 (expected: JSON in UTF-8, RFC 8259)");
        }
        return offset;
    }

    /** Steps back from the next token over JSON whitespace and at most one comma: no value ends with either. */
    private static long valueEnd(byte[] request, long nextToken) {
        int end = (int) nextToken;
        end = skipWhitespaceBack(request, end);
        if (end > 0 && request[end - 1] == ',') {
            end = skipWhitespaceBack(request, end - 1);
        }
        return end;
    }

    private static int skipWhitespaceBack(byte[] request, int end) {
        while (end > 0 && isJsonWhitespace(request[end - 1])) {
            end--;
        }
        return end;
    }

    private static boolean isJsonWhitespace(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r';
    }

    private static byte[] body(String form, Fields fields, byte[] request, String method) {
        if (form.equals("payload")) {
            if (fields.payloadNull && BODY_OPTIONAL.contains(method)) {
                return null;
            }
            return Arrays.copyOfRange(request, (int) fields.payloadStart, (int) fields.payloadEnd);
        }
        JsonNode node = fields.values.get(form);
        if (node == null || !node.isString()) {
            throw new InvalidRequestException(form, "expected a string");
        }
        String text = node.stringValue();
        if (form.equals("body")) {
            int lone = loneSurrogate(text);
            if (lone >= 0) {
                throw new InvalidRequestException(
                        "body",
                        "unpaired surrogate at index %d (expected: text that UTF-8 can encode)".formatted(lone));
            }
            return text.getBytes(StandardCharsets.UTF_8);
        }
        try {
            return Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException(
                    "bodyBase64",
                    "not base64 (expected: RFC 4648 base64 with padding, no line breaks; " + e.getMessage() + ")");
        }
    }

    /** A {@code \ud800} escape decodes to a lone surrogate, which {@code getBytes} would silently turn into '?'. */
    private static int loneSurrogate(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }

    private static String requiredString(Map<String, JsonNode> values, String field) {
        JsonNode node = values.get(field);
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
        Map<String, String> headers = new LinkedHashMap<>();
        if (node == null || node.isNull()) {
            return headers;
        }
        if (!node.isObject()) {
            throw new InvalidRequestException("headers", "expected an object of string values");
        }
        if (node.size() > MAX_HEADERS) {
            throw new InvalidRequestException("headers", "more than %d entries".formatted(MAX_HEADERS));
        }
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            String name = entry.getKey();
            if (name.length() > MAX_HEADER_NAME || !HeaderFields.validName(name)) {
                throw new InvalidRequestException(
                        "headers",
                        "'%s' is not a valid header name (expected: 1..%d token characters)"
                                .formatted(truncate(name), MAX_HEADER_NAME));
            }
            if (RESERVED_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
                throw new InvalidRequestException("headers." + name, "set by the transport (expected: not given)");
            }
            JsonNode value = entry.getValue();
            if (!value.isString()) {
                throw new InvalidRequestException("headers." + name, "expected a string");
            }
            String text = value.stringValue();
            if (text.length() > MAX_HEADER_VALUE) {
                throw new InvalidRequestException(
                        "headers." + name, "longer than %d characters".formatted(MAX_HEADER_VALUE));
            }
            int invalid = HeaderFields.invalidValueIndex(text);
            if (invalid >= 0) {
                throw new InvalidRequestException("headers." + name, HeaderFields.describe(text, invalid));
            }
            headers.put(name, text);
        }
        return headers;
    }

    private static String truncate(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }

    /** What the top level held: the small fields as trees, the payload as offsets into the request. */
    private static final class Fields {
        final Map<String, JsonNode> values = new HashMap<>();
        long payloadStart = -1;
        long payloadEnd = -1;
        boolean payloadNull;

        boolean has(String field) {
            return field.equals("payload") ? payloadStart >= 0 : values.containsKey(field);
        }
    }
}
