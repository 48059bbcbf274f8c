package dev.egress.ydb.query.durability;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The embedded node as a child JVM (its main class on this test's class path), so that it can be killed -9. */
final class NodeProcess implements AutoCloseable {

    private static final Pattern READY = Pattern.compile("ready at (grpcs?://\\S+)");

    private final Process process;
    private final String connectionString;

    private NodeProcess(Process process, String connectionString) {
        this.process = process;
        this.connectionString = connectionString;
    }

    static NodeProcess start(Path dataDir, String... extra) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-cp",
                System.getProperty("java.class.path"),
                "dev.egress.ydb.coordination.EmbeddedCoordinationMain",
                "--port",
                "0",
                "--data-dir",
                dataDir.toString()));
        cmd.addAll(List.of(extra));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        CompletableFuture<String> ready = new CompletableFuture<>();
        Thread reader = new Thread(() -> pump(p, ready), "node-output");
        reader.setDaemon(true);
        reader.start();
        try {
            return new NodeProcess(p, ready.get(60, TimeUnit.SECONDS));
        } catch (Exception e) {
            p.destroyForcibly();
            throw e;
        }
    }

    private static void pump(Process p, CompletableFuture<String> ready) {
        try (BufferedReader in =
                new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                Matcher m = READY.matcher(line);
                if (m.find()) {
                    ready.complete(m.group(1));
                }
            }
        } catch (IOException e) {
            ready.completeExceptionally(e);
        }
        ready.completeExceptionally(new IllegalStateException("node exited before it was ready"));
    }

    String connectionString() {
        return connectionString;
    }

    /** SIGKILL: no shutdown hook, no flush. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        kill();
    }
}
