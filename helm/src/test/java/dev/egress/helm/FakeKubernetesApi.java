package dev.egress.helm;

import com.google.gson.Gson;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The part of the Kubernetes API that Helm's {@code lookup} uses (core/v1 discovery and GET of a namespaced
 * object), served on loopback port 0, so tests can render the chart against "a cluster" in a known state.
 * No kube-apiserver can run on this machine; Helm itself is real. Objects are stored as JSON by path.
 */
final class FakeKubernetesApi implements AutoCloseable {

    /** Where surefire points KUBECONFIG (see helm/pom.xml). */
    static final Path KUBECONFIG = Path.of(System.getenv().getOrDefault("KUBECONFIG", "target/test-kubeconfig"));

    private static final String CORE_RESOURCES = """
            {"kind":"APIResourceList","apiVersion":"v1","groupVersion":"v1","resources":[
             {"name":"namespaces","singularName":"namespace","namespaced":false,"kind":"Namespace","verbs":["get","list"]},
             {"name":"secrets","singularName":"secret","namespaced":true,"kind":"Secret","verbs":["get","list"]},
             {"name":"serviceaccounts","singularName":"serviceaccount","namespaced":true,"kind":"ServiceAccount","verbs":["get","list"]}]}
            """;

    private final HttpServer server;
    private final Map<String, String> objects = new ConcurrentHashMap<>();
    private final List<String> requests = new CopyOnWriteArrayList<>();

    private FakeKubernetesApi() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    /** Starts an empty cluster and points KUBECONFIG at it. */
    static FakeKubernetesApi start() {
        try {
            FakeKubernetesApi api = new FakeKubernetesApi();
            Files.createDirectories(KUBECONFIG.toAbsolutePath().getParent());
            Files.writeString(KUBECONFIG, """
                    apiVersion: v1
                    kind: Config
                    clusters:
                      - name: fake
                        cluster: {server: "http://127.0.0.1:%d"}
                    users:
                      - name: fake
                        user: {token: fake}
                    contexts:
                      - name: fake
                        context: {cluster: fake, user: fake}
                    current-context: fake
                    """.formatted(api.server.getAddress().getPort()));
            return api;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A namespace as it is once created: the object and its {@code default} ServiceAccount. */
    FakeKubernetesApi withNamespace(String namespace) {
        objects.put(
                "/api/v1/namespaces/" + namespace,
                "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + namespace + "\"}}");
        objects.put(
                "/api/v1/namespaces/" + namespace + "/serviceaccounts/default",
                "{\"apiVersion\":\"v1\",\"kind\":\"ServiceAccount\",\"metadata\":{\"name\":\"default\",\"namespace\":\""
                        + namespace + "\"}}");
        return this;
    }

    /** Stores a namespaced object as the API would return it (what `helm install` would have applied). */
    FakeKubernetesApi with(Map<String, Object> object) {
        String namespace = Manifests.at(object, "metadata", "namespace");
        String name = Manifests.at(object, "metadata", "name");
        String resource = ((String) object.get("kind")).toLowerCase() + "s";
        objects.put("/api/v1/namespaces/" + namespace + "/" + resource + "/" + name, new Gson().toJson(object));
        return this;
    }

    /** Methods and paths received, in order. */
    List<String> requests() {
        return List.copyOf(requests);
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        requests.add(exchange.getRequestMethod() + " " + path);
        String body;
        int status;
        if (!"GET".equals(exchange.getRequestMethod())) {
            status = 405;
            body = status("MethodNotAllowed", 405);
        } else if ("/api/v1".equals(path)) {
            status = 200;
            body = CORE_RESOURCES;
        } else if (objects.containsKey(path)) {
            status = 200;
            body = objects.get(path);
        } else {
            status = 404;
            body = status("NotFound", 404);
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (var out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static String status(String reason, int code) {
        return "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"" + reason
                + "\",\"code\":" + code + "}";
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
