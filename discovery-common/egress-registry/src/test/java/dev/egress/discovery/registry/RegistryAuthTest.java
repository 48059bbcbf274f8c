package dev.egress.discovery.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RegistryAuthTest {

    @TempDir
    Path dir;

    @Test
    void blankPropertiesMeanAnonymousWithTheJdkCas() {
        RegistryAuth auth = RegistryAuth.fromProperties(" ", "", null);
        assertThat(auth.authenticated()).isFalse();
        assertThat(auth).isEqualTo(RegistryAuth.NONE);
    }

    @Test
    void refusesATokenGivenTwice() throws Exception {
        Path file = Files.writeString(dir.resolve("token"), "t");
        assertThatThrownBy(() -> RegistryAuth.fromProperties("t", file.toString(), ""))
                .hasMessage("egress.registry.token and egress.registry.token-file: set one of them, not both");
    }

    @Test
    void namesThePropertyOfAFileThatCannotBeRead() {
        assertThatThrownBy(() ->
                        RegistryAuth.fromProperties("", dir.resolve("missing").toString(), ""))
                .hasMessageStartingWith("egress.registry.token-file: ");
        assertThatThrownBy(() -> RegistryAuth.fromProperties("", "", dir.toString()))
                .hasMessageStartingWith("egress.registry.ca-certificates: ");
    }

    @Test
    void neverShowsTheTokenInToString() {
        RegistryAuth auth = RegistryAuth.fromProperties("s3cret-token", "", "");
        RegistrySettings settings =
                RegistrySettings.defaults("grpc://127.0.0.1:2136/local").withAuth(auth);
        assertThat(auth.authenticated()).isTrue();
        assertThat(auth.toString()).doesNotContain("s3cret").contains("(set)");
        assertThat(settings.toString()).doesNotContain("s3cret");
    }

    @Test
    void refusesPrivateCaCertificatesForAPlaintextConnection() throws Exception {
        Path ca = Files.writeString(dir.resolve("ca.pem"), "pem");
        RegistryAuth auth = RegistryAuth.fromProperties("", "", ca.toString());
        assertThatThrownBy(() -> new RegistrySettings(
                        "grpc://127.0.0.1:2136/local",
                        "egress",
                        "borders-registry",
                        Duration.ofSeconds(5),
                        Duration.ofMillis(500),
                        auth))
                .hasMessageContaining("caCertificates")
                .hasMessageContaining("grpcs://");
        assertThat(new RegistrySettings(
                                "grpcs://ydb.example:2135/prod",
                                "egress",
                                "borders-registry",
                                Duration.ofSeconds(5),
                                Duration.ofMillis(500),
                                auth)
                        .auth()
                        .caCertificates())
                .isEqualTo(ca);
    }
}
