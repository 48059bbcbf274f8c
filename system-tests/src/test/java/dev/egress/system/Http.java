package dev.egress.system;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A small JSON client for the platform's HTTP APIs (App and Border). */
final class Http {

    static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * A response as the tests see it.
     *
     * @param status HTTP status (0 when the connection failed)
     * @param json   parsed body, or null if it was not JSON
     * @param text   raw body
     * @param retryAfter the Retry-After header, or null
     */
    record Response(int status, JsonNode json, String text, String retryAfter) {

        boolean ok() {
            return status == 200;
        }

        String problemSlug() {
            if (json == null || !json.has("type")) {
                return null;
            }
            String type = json.get("type").asString();
            return type.substring(type.lastIndexOf(':') + 1);
        }
    }

    private final HttpClient client;

    /** Plain http only (and https trusting the JDK's CAs). */
    Http() {
        this(null);
    }

    /**
     * With a TLS context for https services (the Borders): what to trust and which certificate to present.
     *
     * @param tls the context, or null for the JDK default
     */
    Http(SSLContext tls) {
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2));
        if (tls != null) {
            builder.sslContext(tls);
        }
        this.client = builder.build();
    }

    Response get(URI uri, String token) {
        return send(HttpRequest.newBuilder(uri).GET(), token);
    }

    Response post(URI uri, String token, String body) {
        return send(
                HttpRequest.newBuilder(uri)
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .header("Content-Type", "application/json"),
                token);
    }

    Response put(URI uri, String token, String body) {
        return send(
                HttpRequest.newBuilder(uri)
                        .PUT(HttpRequest.BodyPublishers.ofString(body))
                        .header("Content-Type", "application/json"),
                token);
    }

    Response send(HttpRequest.Builder builder, String token) {
        if (token != null) {
            builder.header("Authorization", "Bearer " + token);
        }
        builder.timeout(Duration.ofSeconds(30));
        try {
            HttpResponse<String> response = client.send(builder.build(), HttpResponse.BodyHandlers.ofString());
            JsonNode json = null;
            try {
                json = response.body().isEmpty() ? null : JSON.readTree(response.body());
            } catch (RuntimeException notJson) {
                // Kept as text: some failure paths (e.g. a proxy in front) may not answer JSON.
            }
            return new Response(
                    response.statusCode(),
                    json,
                    response.body(),
                    response.headers().firstValue("Retry-After").orElse(null));
        } catch (IOException e) {
            return new Response(0, null, e.toString(), null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Response(0, null, "interrupted", null);
        }
    }
}
