package dev.egress.helm;

import static dev.egress.helm.Manifests.containers;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.gson.Gson;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rollout hook's script, run by {@code /bin/sh} with the real kubectl against a small API server on
 * loopback that plays two Borders (no kube-apiserver can run here): border-b is not Ready at first, the
 * first eviction of border-a is refused by the PDB (429). The script must wait for border-b before evicting
 * border-a, retry the refused eviction, never delete a pod, and move to border-b only once border-a's new
 * pod is Ready. Skipped where kubectl is absent.
 */
class RolloutScriptTest {

    private static final String NS = ChartRendering.NAMESPACE;
    private static final String A = ChartRendering.PREFIX + "-border-border-a";
    private static final String B = ChartRendering.PREFIX + "-border-border-b";

    /** One Border pod's life: old, evicted and gone for a few reads, then new, unready, then Ready. */
    private static final class BorderPod {
        final String name;
        volatile String uid = "old";
        volatile String revision = "rev1";
        volatile int readsUntilReady;
        volatile int readsUntilBack = -1;
        volatile int refusals;

        BorderPod(String name, int readsUntilReady, int refusals) {
            this.name = name;
            this.readsUntilReady = readsUntilReady;
            this.refusals = refusals;
        }

        synchronized String json() {
            if (readsUntilBack > 0) {
                readsUntilBack--;
                return null;
            }
            if (readsUntilBack == 0) {
                uid = "new";
                revision = "rev2";
                readsUntilReady = 2;
                readsUntilBack = -1;
            }
            boolean ready = readsUntilReady <= 0;
            readsUntilReady--;
            return new Gson()
                    .toJson(Map.of(
                            "apiVersion",
                            "v1",
                            "kind",
                            "Pod",
                            "metadata",
                            Map.of(
                                    "name", name,
                                    "namespace", NS,
                                    "uid", uid,
                                    "labels", Map.of("controller-revision-hash", revision)),
                            "status",
                            Map.of(
                                    "conditions",
                                    List.of(Map.of("type", "Ready", "status", ready ? "True" : "False")))));
        }

        synchronized int evict() {
            if (refusals > 0) {
                refusals--;
                return 429;
            }
            readsUntilBack = 2;
            return 201;
        }
    }

    private final Map<String, BorderPod> pods = new ConcurrentHashMap<>(Map.of(
            A + "-0", new BorderPod(A + "-0", 0, 1),
            B + "-0", new BorderPod(B + "-0", 3, 0)));
    private final List<String> log = new CopyOnWriteArrayList<>();

    @Test
    void theScriptEvictsOneBorderAtATimeOnlyWhileTheOthersAreReadyAndRetriesARefusal(@TempDir Path work)
            throws Exception {
        Path kubectl = onPath("kubectl");
        assumeTrue(kubectl != null, "kubectl not on PATH: the rollout script cannot run here");
        HttpServer api = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        api.createContext("/", this::handle);
        api.start();
        try {
            Path kubeconfig = Files.writeString(
                    work.resolve("kubeconfig"), """
                    apiVersion: v1
                    kind: Config
                    clusters: [{name: fake, cluster: {server: "http://127.0.0.1:%d"}}]
                    users: [{name: fake, user: {token: fake}}]
                    contexts: [{name: fake, context: {cluster: fake, user: fake, namespace: %s}}]
                    current-context: fake
                    """.formatted(api.getAddress().getPort(), NS));
            Files.createDirectories(work.resolve("tmp"));
            ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-ec", script().replace("/tmp/", work + "/tmp/"))
                    .redirectErrorStream(true)
                    .redirectOutput(work.resolve("out.txt").toFile());
            builder.environment().put("KUBECONFIG", kubeconfig.toString());
            builder.environment().put("HOME", work.toString());
            Process process = builder.start();
            boolean finished = process.waitFor(180, TimeUnit.SECONDS);
            if (!finished) {
                process.destroyForcibly();
            }
            String out = Files.readString(work.resolve("out.txt"));

            assertThat(finished).as("the script finished: %s", out).isTrue();
            assertThat(process.exitValue()).as(out).isZero();
            assertThat(log).noneMatch(l -> l.startsWith("DELETE"));
            assertThat(log.stream().filter(l -> l.startsWith("POST")).toList())
                    .as("border-a refused once, then evicted; then border-b")
                    .containsExactly("POST " + A + "-0 429", "POST " + A + "-0 201", "POST " + B + "-0 201");
            assertThat(log.indexOf("POST " + A + "-0 429"))
                    .as("border-a is evicted only after border-b was seen Ready")
                    .isGreaterThan(log.indexOf("GET " + B + "-0 Ready"));
            assertThat(log.indexOf("POST " + B + "-0 201"))
                    .as("border-b is evicted only after border-a's new pod is Ready")
                    .isGreaterThan(log.indexOf("GET " + A + "-0 new Ready"));
            assertThat(out).contains(A + ": Ready", B + ": Ready");
        } finally {
            api.stop(0);
        }
    }

    private static String script() throws IOException {
        Path work = Files.createTempDirectory("rollout-chart");
        Path chart = ChartRendering.copyOfChart(work, null, null);
        Path template = chart.resolve("templates/border/rollout.yaml");
        Files.writeString(template, Files.readString(template).replace("helm.sh/hook", "test.egress.dev/hook"));
        Map<String, Object> job = ChartRendering.render(chart)
                .example("values-hostnetwork.yaml")
                .set("border.rollout.automatic", true)
                .set("border.rollout.image.repository", "kubectl")
                .set("border.rollout.image.tag", "v1")
                .set("border.rollout.settleSeconds", 0)
                .set("border.rollout.readyTimeoutSeconds", 60)
                .manifests()
                .named("Job", ChartRendering.PREFIX + "-border-rollout");
        return Manifests.<List<String>>at(containers(job).get(0), "args").get(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String method = exchange.getRequestMethod();
        exchange.getRequestBody().readAllBytes();
        int status = 200;
        String body;
        String pods = "/api/v1/namespaces/" + NS + "/pods/";
        String statefulSets = "/apis/apps/v1/namespaces/" + NS + "/statefulsets/";
        if (path.equals("/api")) {
            body = "{\"kind\":\"APIVersions\",\"versions\":[\"v1\"],\"serverAddressByClientCIDRs\":[]}";
        } else if (path.equals("/apis")) {
            body = "{\"kind\":\"APIGroupList\",\"apiVersion\":\"v1\",\"groups\":[{\"name\":\"apps\",\"versions\":"
                    + "[{\"groupVersion\":\"apps/v1\",\"version\":\"v1\"}],\"preferredVersion\":"
                    + "{\"groupVersion\":\"apps/v1\",\"version\":\"v1\"}}]}";
        } else if (path.equals("/api/v1")) {
            body = "{\"kind\":\"APIResourceList\",\"groupVersion\":\"v1\",\"resources\":["
                    + "{\"name\":\"pods\",\"singularName\":\"pod\",\"namespaced\":true,\"kind\":\"Pod\","
                    + "\"verbs\":[\"get\",\"list\",\"watch\"],\"shortNames\":[\"po\"]},"
                    + "{\"name\":\"pods/eviction\",\"singularName\":\"\",\"namespaced\":true,\"group\":\"policy\","
                    + "\"version\":\"v1\",\"kind\":\"Eviction\",\"verbs\":[\"create\"]}]}";
        } else if (path.equals("/apis/apps/v1")) {
            body = "{\"kind\":\"APIResourceList\",\"groupVersion\":\"apps/v1\",\"resources\":["
                    + "{\"name\":\"statefulsets\",\"singularName\":\"statefulset\",\"namespaced\":true,"
                    + "\"kind\":\"StatefulSet\",\"verbs\":[\"get\"],\"shortNames\":[\"sts\"]}]}";
        } else if (path.startsWith(statefulSets) && method.equals("GET")) {
            String name = path.substring(statefulSets.length());
            body = new Gson()
                    .toJson(Map.of(
                            "apiVersion",
                            "apps/v1",
                            "kind",
                            "StatefulSet",
                            "metadata",
                            Map.of("name", name, "namespace", NS, "generation", 2),
                            "status",
                            Map.of("observedGeneration", 2, "updateRevision", "rev2")));
        } else if (path.startsWith(pods) && path.endsWith("/eviction") && method.equals("POST")) {
            String name = path.substring(pods.length(), path.length() - "/eviction".length());
            status = this.pods.get(name).evict();
            log.add("POST " + name + " " + status);
            body = status == 201
                    ? "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Success\",\"code\":201}"
                    : "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"TooManyRequests\","
                            + "\"message\":\"Cannot evict pod as it would violate the pod's disruption budget.\",\"code\":429}";
        } else if (path.startsWith(pods) && method.equals("GET")) {
            String name = path.substring(pods.length());
            BorderPod pod = this.pods.get(name);
            body = pod == null ? null : pod.json();
            if (body == null) {
                status = 404;
                body = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"NotFound\","
                        + "\"details\":{\"name\":\"" + name + "\",\"kind\":\"pods\"},\"code\":404}";
                log.add("GET " + name + " absent");
            } else {
                log.add("GET " + name + (body.contains("\"uid\":\"new\"") ? " new" : "")
                        + (body.contains("\"status\":\"True\"") ? " Ready" : ""));
            }
        } else {
            log.add(method + " " + path);
            status = method.equals("DELETE") ? 405 : 404;
            body = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"code\":" + status + "}";
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static Path onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, command);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }
}
