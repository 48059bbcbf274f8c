package dev.egress.border;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.egress.border.egress.LimitsProperties;
import dev.egress.border.egress.PoolProperties;
import dev.egress.border.egress.TunnelProperties;
import dev.egress.border.ssrf.DnsProperties;
import dev.egress.border.ssrf.SsrfProperties;
import dev.egress.discovery.web.server.ServerDeadlines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.util.unit.DataSize;

/** The defaults documented in docs/configuration/border.md are the ones the records bind to. */
class PropertiesDefaultsTest {

    private static <T> T bind(String prefix, Class<T> type, Map<String, String> values) {
        return new Binder(new MapConfigurationPropertySource(values)).bindOrCreate(prefix, type);
    }

    @Test
    void limitsDefaultToTheDocumentedValues() {
        LimitsProperties limits = bind("egress.limits", LimitsProperties.class, Map.of());
        assertThat(limits.maxConcurrencyPerIp()).isEqualTo(4096);
        assertThat(limits.maxRequestBody()).isEqualTo(DataSize.ofMegabytes(1));
        assertThat(limits.maxResponseBody()).isEqualTo(DataSize.ofKilobytes(64));
        assertThat(limits.connectTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(limits.responseTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(limits.callTimeout()).isEqualTo(Duration.ofSeconds(35));
    }

    @Test
    void refusesACallTimeoutThatIsNotPositive() {
        assertThatThrownBy(
                        () -> bind("egress.limits", LimitsProperties.class, Map.of("egress.limits.call-timeout", "0s")))
                .hasStackTraceContaining("egress.limits.call-timeout");
    }

    @Test
    void tunnelsDefaultToTheDocumentedValuesAndBudgets() {
        TunnelProperties tunnel = bind("egress.tunnel", TunnelProperties.class, Map.of());
        assertThat(tunnel.maxPerIp()).isEqualTo(1024);
        assertThat(tunnel.bytesPerTunnel()).isEqualTo(DataSize.ofKilobytes(128));
        assertThat(tunnel.maxBytesPerTenant()).isEqualTo(DataSize.ofMegabytes(32));
        assertThat(tunnel.maxBytes()).isEqualTo(DataSize.ofMegabytes(64));
        assertThat(tunnel.stallTimeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(tunnel.idleTimeout()).isEqualTo(Duration.ofMinutes(6));
        assertThat(tunnel.maxLifetime()).isEqualTo(Duration.ofMinutes(65));
        assertThat(tunnel.tunnelsPerTenant()).isEqualTo(256);
        assertThat(tunnel.allowedPorts()).as("443 and 80 only").isEmpty();
        assertThat(tunnel.tunnelsInAll()).isEqualTo(512);
    }

    @Test
    void poolDefaultsToTheDocumentedValues() {
        PoolProperties pool = bind("egress.pool", PoolProperties.class, Map.of());
        assertThat(pool.maxConnections()).isEqualTo(4096);
        assertThat(pool.maxIdleTime()).isEqualTo(Duration.ofSeconds(30));
        assertThat(pool.maxLifeTime()).isEqualTo(Duration.ofMinutes(5));
        assertThat(pool.pendingAcquireTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(pool.evictionInterval()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void securityTokensCanComeFromFilesAndNeverBoth(@TempDir Path dir) throws Exception {
        Path internal = Files.writeString(dir.resolve("internal"), "old\nnew\n");
        SecurityProperties fromFile = bind(
                "egress.security",
                SecurityProperties.class,
                Map.of("egress.security.internal-token-file", internal.toString()));
        assertThat(fromFile.internalTokens().current().matches("Bearer new")).isTrue();
        assertThat(fromFile.internalTokens().current().matches("Bearer old")).isTrue();
        assertThat(fromFile.toString()).contains("file " + internal).doesNotContain("new");
        SecurityProperties both = bind(
                "egress.security",
                SecurityProperties.class,
                Map.of(
                        "egress.security.internal-token-file",
                        internal.toString(),
                        "egress.security.internal-token",
                        "x"));
        assertThatThrownBy(both::internalTokens)
                .hasMessageContaining("egress.security.internal-token and egress.security.internal-token-file");
    }

    @Test
    void borderTakesACommaListOfIpsAndDefaultsTheDrainTimeout() {
        BorderProperties border = bind(
                "egress.border",
                BorderProperties.class,
                Map.of(
                        "egress.border.id",
                        "border-a",
                        "egress.border.ips",
                        "127.0.0.2, 127.0.0.3",
                        "egress.border.advertised-url",
                        "http://127.0.0.1:8181"));
        assertThat(border.ips()).hasSize(2);
        assertThat(border.drainTimeout()).isEqualTo(Duration.ofSeconds(20));
        assertThat(border.initialStatus().name()).isEqualTo("ACTIVE");
        assertThat(border.allowLoopbackIps())
                .as("loopback dedicated IPs are an explicit opt-in")
                .isFalse();
    }

    @Test
    void neverPrintsTokens() {
        SecurityProperties security = new SecurityProperties("s3cret-internal", null, "s3cret-operator", null, false);
        assertThat(security.toString()).doesNotContain("s3cret").contains("<set>");
    }

    @Test
    void ssrfAllowsNothingByDefault() {
        SsrfProperties ssrf = bind("egress.ssrf", SsrfProperties.class, Map.of());
        assertThat(ssrf.allowedRanges()).isEmpty();
        assertThat(ssrf.deniedRanges()).isEmpty();
    }

    @Test
    void dnsUsesTheSystemServersWithBoundedTimeByDefault() {
        DnsProperties dns = bind("egress.dns", DnsProperties.class, Map.of());
        assertThat(dns.servers()).isEmpty();
        assertThat(dns.queryTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(dns.resolveTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(dns.maxQueriesPerResolve()).isEqualTo(8);
        assertThat(dns.maxPendingPerName()).isEqualTo(64);
    }

    @Test
    void listeningPortDeadlinesDefaultToTenSecondsForHeaders() {
        ServerDeadlines server = bind("egress.server", ServerDeadlines.class, Map.of());
        assertThat(server.requestHeaderTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(server.requestBodyTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThatThrownBy(() -> bind(
                        "egress.server", ServerDeadlines.class, Map.of("egress.server.request-header-timeout", "0s")))
                .hasStackTraceContaining("request-header-timeout");
    }

    @Test
    void closesIdleConnectionsAfterTwoMinutesBySpringBootsPropertyInTheJarsApplicationYml() throws Exception {
        // The Border's 120 s is Boot's server.netty.idle-timeout, set by the jar's application.yml (App: 60 s).
        PropertySource<?> yml = new YamlPropertySourceLoader()
                .load("application.yml", new ClassPathResource("application.yml"))
                .get(0);
        assertThat(yml.getProperty("server.netty.idle-timeout")).hasToString("120s");
    }
}
