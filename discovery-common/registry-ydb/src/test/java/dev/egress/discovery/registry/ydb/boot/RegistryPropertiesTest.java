package dev.egress.discovery.registry.ydb.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** The defaults documented in docs/configuration/{app,border}.md, and what each side makes of them. */
class RegistryPropertiesTest {

    private static final Duration POLL = Duration.ofMillis(500);

    private static RegistryProperties bind(Map<String, String> values) {
        return new Binder(new MapConfigurationPropertySource(values))
                .bindOrCreate("egress.registry", RegistryProperties.class);
    }

    @Test
    void defaultsToTheDocumentedValuesAndNeedsAConnectionString() {
        RegistryProperties registry = bind(Map.of());
        assertThat(registry.connectionString()).isEmpty();
        assertThat(registry.configured()).isFalse();
        assertThat(registry.node()).isEqualTo("egress");
        assertThat(registry.semaphore()).isEqualTo("borders-registry");
        assertThat(registry.sessionTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(registry.createIfMissing()).isFalse();
        assertThatThrownBy(() -> registry.publisherSettings(false))
                .hasMessageContaining("egress.registry.connection-string");
        assertThatThrownBy(() -> registry.watcherSettings(POLL, false))
                .hasMessageContaining("egress.registry.connection-string");

        RegistryProperties set = bind(Map.of(
                "egress.registry.connection-string",
                " grpc://127.0.0.1:2136/local ",
                "egress.registry.session-timeout",
                "7s"));
        assertThat(set.publisherSettings(false).connectionString()).isEqualTo("grpc://127.0.0.1:2136/local");
        assertThat(set.publisherSettings(false).sessionTimeout()).isEqualTo(Duration.ofSeconds(7));
        assertThat(set.publisherSettings(false).auth().authenticated()).isFalse();
        assertThat(set.watcherSettings(Duration.ofMillis(200), false).pollInterval())
                .isEqualTo(Duration.ofMillis(200));
    }

    @Test
    void aPublisherAlwaysCreatesTheRegistryAndAWatcherOnlyWhenTold() {
        RegistryProperties anonymous = bind(Map.of("egress.registry.connection-string", "grpc://127.0.0.1:2136/local"));
        assertThat(anonymous.publisherSettings(false).createIfMissing())
                .as("Borders create the registry")
                .isTrue();
        assertThat(anonymous.watcherSettings(POLL, false).createIfMissing())
                .as("App only reads by default")
                .isFalse();
        RegistryProperties create = bind(Map.of(
                "egress.registry.connection-string",
                "grpc://127.0.0.1:2136/local",
                "egress.registry.create-if-missing",
                "true"));
        assertThat(create.watcherSettings(POLL, false).createIfMissing()).isTrue();
    }

    @Test
    void refusesATokenOverPlaintextUnlessInsecureLocal() {
        RegistryProperties plaintext = bind(Map.of(
                "egress.registry.connection-string",
                "grpc://127.0.0.1:2136/local",
                "egress.registry.token",
                "s3cret-ydb"));
        assertThatThrownBy(() -> plaintext.publisherSettings(false))
                .hasMessageContaining("egress.registry.token/token-file")
                .hasMessageContaining("grpc://127.0.0.1:2136/local")
                .hasMessageContaining("egress.security.insecure-local")
                .hasMessageNotContaining("s3cret");
        assertThatThrownBy(() -> plaintext.watcherSettings(POLL, false))
                .hasMessageContaining("egress.registry.token/token-file");
        assertThat(plaintext.publisherSettings(true).auth().token()).isEqualTo("s3cret-ydb");
        RegistryProperties tls = bind(Map.of(
                "egress.registry.connection-string", "grpcs://ydb.example:2135/prod", "egress.registry.token", "t"));
        assertThat(tls.publisherSettings(false).auth().authenticated()).isTrue();
    }

    @Test
    void keepsTheTokenOutOfToString() {
        RegistryProperties withToken = bind(Map.of(
                "egress.registry.connection-string",
                "grpc://127.0.0.1:2136/local",
                "egress.registry.token",
                "s3cret-ydb"));
        assertThat(withToken.toString()).doesNotContain("s3cret").contains("token=(set)");
        assertThat(withToken.publisherSettings(true).toString()).doesNotContain("s3cret");
    }
}
