package dev.egress.system;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One platform service as a real operating-system process ({@code java -jar ...}), with its output in
 * a log file. {@link #terminate()} sends SIGTERM, {@link #kill()} SIGKILL — the two ways a Border or a
 * coordination node leaves in production — and {@link #freeze()} SIGSTOP, a service that hangs.
 */
final class ServiceProcess implements AutoCloseable {

    private final String name;
    private final List<String> command;
    private final Path log;
    private Process process;

    private ServiceProcess(String name, List<String> command, Path log) {
        this.name = name;
        this.command = List.copyOf(command);
        this.log = log;
    }

    /**
     * Starts a jar.
     *
     * @param name    name for logs
     * @param jar     the jar
     * @param args    program arguments
     * @param logDir  where {@code <name>.log} goes
     * @return the running process
     */
    static ServiceProcess start(String name, Path jar, List<String> args, Path logDir) {
        return start(name, List.of(), List.of("-jar", jar.toString()), args, logDir);
    }

    /**
     * Starts a JVM behind a command prefix, e.g. {@code ip netns exec <namespace>} (which execs the JVM
     * in place, so signals reach it directly).
     *
     * @param name     name for logs
     * @param prefix   words before the {@code java} executable
     * @param launch   JVM options and the main part ({@code -jar x.jar} or {@code -cp ... Main})
     * @param args     program arguments
     * @param logDir   where {@code <name>.log} goes
     * @return the running process
     */
    static ServiceProcess start(String name, List<String> prefix, List<String> launch, List<String> args, Path logDir) {
        List<String> command = new ArrayList<>(prefix);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // Small, quick-starting JVMs: six of them share two cores during the run.
        command.addAll(List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss512k"));
        command.addAll(launch);
        command.addAll(args);
        ServiceProcess service = new ServiceProcess(name, command, logDir.resolve(name + ".log"));
        service.launch();
        return service;
    }

    private void launch() {
        try {
            Files.createDirectories(log.getParent());
            process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + name + ": " + command, e);
        }
    }

    /** Starts the same command again after the process ended (a restart). */
    void restart() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException(name + " is still running");
        }
        launch();
    }

    /** Sends SIGTERM (graceful shutdown). */
    void terminate() {
        process.destroy();
    }

    /** Sends SIGKILL ({@code kill -9}): no shutdown hook runs. */
    void kill() {
        process.destroyForcibly();
    }

    /**
     * Freezes the process (SIGSTOP): it keeps its sockets and its registry session until the session
     * times out, the kernel still accepts connections, and nothing answers: a service hung mid-request.
     */
    void freeze() {
        HostCommand.run(Duration.ofSeconds(10), "kill", "-STOP", Long.toString(process.pid()));
    }

    /**
     * Waits for the process to end.
     *
     * @param timeout the bound
     * @return true if it ended
     */
    boolean awaitExit(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    boolean isAlive() {
        return process.isAlive();
    }

    int exitCode() {
        return process.exitValue();
    }

    String name() {
        return name;
    }

    /**
     * The process's output so far.
     *
     * @return the log text
     */
    String logText() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "";
        }
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!awaitExit(Duration.ofSeconds(30))) {
                process.destroyForcibly();
                awaitExit(Duration.ofSeconds(10));
            }
        }
    }
}
