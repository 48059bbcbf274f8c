package dev.egress.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A wrong property stops the real App jar with one line that names it, not with a chain of bean
 * creation exceptions that hides the cause at its end.
 */
class StartupFailureIT {

    @TempDir
    Path dir;

    @Test
    void aWrongStrategyIsReportedInOneLineNamingTheProperty() throws Exception {
        Path tenants =
                Files.writeString(dir.resolve("tenants.yaml"), "tenants: [{id: a, dedicatedIps: [127.0.0.3]}]\n");
        Path jar = Path.of("target", "app-service.jar").toAbsolutePath();
        String java = ProcessHandle.current().info().command().orElse("java");
        Process process = new ProcessBuilder(List.of(
                        java,
                        "-Xmx128m",
                        "-XX:TieredStopAtLevel=1",
                        "-jar",
                        jar.toString(),
                        "--server.port=0",
                        "--egress.tenants.file=" + tenants,
                        "--egress.security.api-tokens=t",
                        "--egress.security.internal-token=i",
                        "--egress.security.insecure-local=true",
                        "--egress.routing.strategy=random"))
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("out.log").toFile())
                .start();

        assertThat(process.waitFor(120, TimeUnit.SECONDS))
                .as("the App stops by itself")
                .isTrue();
        String output = Files.readString(dir.resolve("out.log"));

        assertThat(process.exitValue()).isNotZero();
        assertThat(output)
                .contains("APPLICATION FAILED TO START")
                .contains(
                        "Invalid configuration: egress.routing.strategy (or egress.routing.weights): strategy: 'random'")
                .doesNotContain("UnsatisfiedDependencyException");
    }
}
