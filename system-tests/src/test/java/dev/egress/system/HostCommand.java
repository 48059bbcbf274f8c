package dev.egress.system;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the host's network tools ({@code ip}, {@code nft}, {@code tc}, {@code curl}) for the namespace
 * tests ({@link NetworkTopology}, {@link NatNetwork}), with the sbin directories on the PATH: root's
 * usual PATH may lack them, and {@code ip netns exec <ns> nft} looks {@code nft} up on the child's PATH.
 */
final class HostCommand {

    private HostCommand() {}

    /**
     * A command's exit code (or an HTTP status, for {@link NatNetwork#curl}) and output.
     *
     * @param code   exit code or status
     * @param output the text
     */
    record Result(int code, String output) {
        boolean ok() {
            return code == 0;
        }
    }

    /**
     * Runs a command to its end.
     *
     * @param command the command; its first word is looked up on {@link #searchPath()}
     * @param stdin   what to write to its input, or null
     * @param timeout how long it may take
     * @return its exit code and output (code -1 if it could not run or timed out)
     */
    static Result exec(List<String> command, String stdin, Duration timeout) {
        try {
            List<String> resolved = new ArrayList<>(command);
            resolved.set(0, absolute(command.get(0)));
            ProcessBuilder builder = new ProcessBuilder(resolved).redirectErrorStream(true);
            builder.environment().put("PATH", String.join(":", searchPath()));
            Process p = builder.start();
            if (stdin != null) {
                p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
            }
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                return new Result(-1, "timed out: " + command);
            }
            return new Result(p.exitValue(), out);
        } catch (IOException e) {
            return new Result(-1, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "interrupted");
        }
    }

    /**
     * Runs a command that must succeed.
     *
     * @param timeout how long it may take
     * @param command the command
     * @throws IllegalStateException with its output if it fails
     */
    static void run(Duration timeout, String... command) {
        Result r = exec(List.of(command), null, timeout);
        if (!r.ok()) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + r.output());
        }
    }

    /**
     * Whether a tool is installed.
     *
     * @param tool its name
     * @return true if found on {@link #searchPath()}
     */
    static boolean onPath(String tool) {
        return !absolute(tool).equals(tool);
    }

    /**
     * A tool's absolute path.
     *
     * @param tool its name (or a path, returned as it is)
     * @return the path, or the name itself if not found
     */
    static String absolute(String tool) {
        if (tool.contains("/")) {
            return tool;
        }
        return searchPath().stream()
                .map(d -> Path.of(d, tool))
                .filter(Files::isExecutable)
                .findFirst()
                .map(Path::toString)
                .orElse(tool);
    }

    /**
     * The test JVM's PATH, then the sbin and bin directories it lacks.
     *
     * @return the directories to search
     */
    static List<String> searchPath() {
        List<String> dirs = new ArrayList<>();
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!d.isEmpty()) {
                dirs.add(d);
            }
        }
        for (String d : List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin")) {
            if (!dirs.contains(d)) {
                dirs.add(d);
            }
        }
        return dirs;
    }
}
