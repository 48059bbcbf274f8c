package dev.egress.system;

import dev.egress.discovery.web.testing.RecordingSink;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import tech.ydb.coordination.CoordinationClient;
import tech.ydb.coordination.CoordinationSession;
import tech.ydb.core.grpc.GrpcTransport;

/**
 * Hostile input at every public door of the platform: the dispatch API, the Border's internal and
 * operator APIs, slow clients holding connections, and a rogue registry session that writes malformed
 * announcements straight into {@code borders-registry}.
 */
final class BadInput implements AutoCloseable {

    private final Platform platform;
    private final RecordingSink sink;
    private final List<AutoCloseable> rogue = new ArrayList<>();

    BadInput(Platform platform, RecordingSink sink) {
        this.platform = platform;
        this.sink = sink;
    }

    /**
     * Sends every bad request once.
     *
     * @return request name to the HTTP status it got
     */
    Map<String, Integer> sendEverywhere() {
        Map<String, Integer> statuses = new LinkedHashMap<>();
        URI deliveries = platform.appUri(0, "/v1/deliveries");
        String url = sink.baseUri() + "/hook";
        Map<String, String> bodies = new LinkedHashMap<>();
        bodies.put("empty", "");
        bodies.put("truncated", "{\"tenantId\":");
        bodies.put("array", "[]");
        bodies.put("null", "null");
        bodies.put("number", "42");
        bodies.put("not-json", "tenantId=acme");
        bodies.put("tenant-number", "{\"tenantId\":1,\"url\":\"" + url + "\",\"payload\":{}}");
        bodies.put("missing-url", "{\"tenantId\":\"acme\",\"payload\":{}}");
        bodies.put("missing-tenant", "{\"url\":\"" + url + "\",\"payload\":{}}");
        bodies.put("bad-url", "{\"tenantId\":\"acme\",\"url\":\"not a url\",\"payload\":{}}");
        bodies.put("ftp-url", "{\"tenantId\":\"acme\",\"url\":\"ftp://127.0.0.1/x\",\"payload\":{}}");
        bodies.put(
                "bad-method",
                "{\"tenantId\":\"acme\",\"url\":\"" + url + "\",\"method\":\"GET\\r\\nX: y\",\"payload\":{}}");
        bodies.put(
                "headers-not-object", "{\"tenantId\":\"acme\",\"url\":\"" + url + "\",\"headers\":[1],\"payload\":{}}");
        bodies.put("unknown-tenant", "{\"tenantId\":\"nobody\",\"url\":\"" + url + "\",\"payload\":{}}");
        bodies.put(
                "metadata-target", "{\"tenantId\":\"acme\",\"url\":\"http://169.254.169.254/latest\",\"payload\":{}}");
        bodies.put(
                "deep-nesting",
                "{\"tenantId\":\"acme\",\"url\":\"" + url + "\",\"payload\":" + "[".repeat(5000) + "]".repeat(5000)
                        + "}");
        bodies.put(
                "huge-payload",
                "{\"tenantId\":\"acme\",\"url\":\"" + url + "\",\"payload\":\"" + "x".repeat(5 * 1024 * 1024) + "\"}");
        Random random = new Random(42);
        for (int i = 0; i < 20; i++) {
            bodies.put("random-" + i, randomJson(random, 4));
        }
        bodies.forEach((name, body) -> statuses.put(
                "app " + name,
                platform.http.post(deliveries, Platform.API_TOKEN, body).status()));
        statuses.put(
                "app no token",
                platform.http.post(deliveries, null, bodies.get("missing-url")).status());
        statuses.put(
                "app wrong token",
                platform.http
                        .post(deliveries, "wrong", bodies.get("missing-url"))
                        .status());
        statuses.put(
                "app ips no token",
                platform.http.get(platform.appUri(0, "/v1/egress/ips"), null).status());

        URI forward = platform.borderUri("border-a", "/internal/v1/egress");
        String forwardBody = "{\"deliveryId\":\"x\",\"sourceIp\":\"127.0.0.2\",\"url\":\"" + url
                + "\",\"method\":\"POST\",\"headers\":{},\"body\":\"{}\"}";
        statuses.put(
                "border forward no token",
                platform.http.post(forward, null, forwardBody).status());
        statuses.put(
                "border forward wrong token",
                platform.http.post(forward, "wrong", forwardBody).status());
        statuses.put(
                "border forward garbage",
                platform.http.post(forward, Platform.INTERNAL_TOKEN, "{{{").status());
        statuses.put(
                "border forward metadata target",
                platform.http
                        .post(
                                forward,
                                Platform.INTERNAL_TOKEN,
                                forwardBody.replace(url, "http://169.254.169.254/latest"))
                        .status());
        statuses.put(
                "border forward foreign source ip",
                platform.http
                        .post(forward, Platform.INTERNAL_TOKEN, forwardBody.replace("127.0.0.2", "127.0.0.9"))
                        .status());
        URI ops = platform.borderUri("border-a", "/ops/v1/ips/127.0.0.2");
        statuses.put(
                "border ops no token",
                platform.http.put(ops, null, "{\"status\":\"DISABLED\"}").status());
        statuses.put(
                "border ops internal token",
                platform.http
                        .put(ops, Platform.INTERNAL_TOKEN, "{\"status\":\"DISABLED\"}")
                        .status());
        statuses.put(
                "border ops bad status",
                platform.http
                        .put(ops, Platform.OPERATOR_TOKEN, "{\"status\":\"GONE\"}")
                        .status());
        statuses.put(
                "border ops garbage",
                platform.http.put(ops, Platform.OPERATOR_TOKEN, "][").status());
        statuses.put(
                "border ops unknown ip",
                platform.http
                        .put(
                                platform.borderUri("border-a", "/ops/v1/ips/127.0.0.9"),
                                Platform.OPERATOR_TOKEN,
                                "{\"status\":\"DRAINING\"}")
                        .status());
        statuses.put(
                "border ops list no token",
                platform.http
                        .send(
                                HttpRequest.newBuilder(platform.borderUri("border-a", "/ops/v1/ips"))
                                        .GET(),
                                null)
                        .status());
        return statuses;
    }

    /**
     * Opens connections that send half a request and stall, runs {@code action}, then closes them.
     *
     * @return how many slow clients were held
     */
    int holdSlowClientsWhile(Runnable action) throws IOException {
        List<Socket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < 50; i++) {
                Socket socket = new Socket("127.0.0.1", platform.appPorts.get(0));
                OutputStream out = socket.getOutputStream();
                out.write(("POST /v1/deliveries HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                                + Platform.API_TOKEN
                                + "\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"ten")
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();
                sockets.add(socket);
            }
            action.run();
            return sockets.size();
        } finally {
            for (Socket socket : sockets) {
                socket.close();
            }
        }
    }

    /**
     * Acquires slots in the registry with malformed data through rogue sessions.
     *
     * @return how many malformed owners were written
     */
    int publishMalformedAnnouncements() {
        List<byte[]> payloads = List.of(
                "not json at all".getBytes(StandardCharsets.UTF_8),
                "{\"version\":2,\"borderId\":\"border-x\"}".getBytes(StandardCharsets.UTF_8),
                ("{\"version\":1,\"borderId\":\"Border X\",\"endpoint\":\"http://127.0.0.1:1\",\"ips\":[{\"ip\":\"127.0.0.3\","
                                + "\"status\":\"ACTIVE\"}],\"publishedAt\":\"2026-11-30T00:00:00Z\",\"generation\":1}")
                        .getBytes(StandardCharsets.UTF_8),
                ("{\"version\":1,\"borderId\":\"border-x\",\"endpoint\":\"http://127.0.0.1:1\",\"ips\":[{\"ip\":\"999.0.0.1\","
                                + "\"status\":\"ACTIVE\"}],\"publishedAt\":\"2026-11-30T00:00:00Z\",\"generation\":1}")
                        .getBytes(StandardCharsets.UTF_8),
                new byte[70 * 1024]);
        GrpcTransport transport =
                GrpcTransport.forConnectionString(platform.connectionString()).build();
        rogue.add(transport);
        CoordinationClient client = CoordinationClient.newClient(transport);
        for (byte[] payload : payloads) {
            CoordinationSession session = client.createSession("egress");
            session.connect().join().expectSuccess("rogue session");
            session.acquireSemaphore("borders-registry", 1, payload, Duration.ofSeconds(5))
                    .join()
                    .getStatus()
                    .expectSuccess("rogue acquire");
            rogue.add(0, session);
        }
        return payloads.size();
    }

    private static String randomJson(Random random, int depth) {
        int kind = random.nextInt(depth <= 0 ? 4 : 6);
        return switch (kind) {
            case 0 -> String.valueOf(random.nextInt());
            case 1 -> "\"" + Long.toHexString(random.nextLong()) + "\"";
            case 2 -> random.nextBoolean() ? "true" : "null";
            case 3 -> "1.5e" + random.nextInt(400);
            case 4 -> {
                StringBuilder array = new StringBuilder("[");
                for (int i = random.nextInt(4); i > 0; i--) {
                    array.append(randomJson(random, depth - 1)).append(i > 1 ? "," : "");
                }
                yield array.append(']').toString();
            }
            default -> {
                StringBuilder object = new StringBuilder("{");
                String[] keys = {"tenantId", "url", "method", "headers", "payload", "x"};
                for (int i = random.nextInt(4); i > 0; i--) {
                    object.append('"')
                            .append(keys[random.nextInt(keys.length)])
                            .append("\":")
                            .append(randomJson(random, depth - 1))
                            .append(i > 1 ? "," : "");
                }
                yield object.append('}').toString();
            }
        };
    }

    @Override
    public void close() throws Exception {
        for (AutoCloseable closeable : rogue) {
            closeable.close();
        }
        rogue.clear();
    }
}
