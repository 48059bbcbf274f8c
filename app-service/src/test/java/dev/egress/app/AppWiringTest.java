package dev.egress.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.app.config.SecurityProperties;
import dev.egress.app.resilience.BorderBreakers;
import dev.egress.app.routing.EgressRouter;
import dev.egress.app.routing.RoutingProperties;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.RegistryWatcher;
import dev.egress.discovery.registry.ydb.boot.RegistryProperties;
import dev.egress.discovery.registry.ydb.boot.WatcherPolling;
import dev.egress.discovery.trust.testing.TestPki;
import dev.egress.discovery.web.boot.PropertyFailureAnalyzer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;

/** How the App wires itself from properties, without starting a server. */
class AppWiringTest {

    @TempDir
    Path dir;

    private ReactiveWebApplicationContextRunner runner() throws Exception {
        Path tenants = Files.writeString(dir.resolve("tenants.yaml"), "sharedPool: [127.0.0.8]\ntenants: [{id: a}]\n");
        return new ReactiveWebApplicationContextRunner()
                .withUserConfiguration(AppApplication.class)
                .withPropertyValues(
                        "egress.tenants.file=" + tenants,
                        "egress.security.api-tokens=t",
                        "egress.security.internal-token=i",
                        "egress.security.insecure-local=true");
    }

    @Test
    void refusesToStartWithoutTrustMaterialNamingTheProperties() throws Exception {
        runner().withPropertyValues("egress.security.insecure-local=false").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure())
                    .rootCause()
                    .hasMessageContaining("egress.trust.certificate")
                    .hasMessageContaining("egress.trust.private-key")
                    .hasMessageContaining("egress.trust.border-ca")
                    .hasMessageContaining("egress.security.insecure-local");
        });
    }

    @Test
    void refusesToStartWithPartOfTheTrustMaterialNamingWhatIsMissing() throws Exception {
        TestPki pki = TestPki.create("app wiring CA");
        TestPki.Issued app = pki.app("app-1");
        runner().withPropertyValues(
                        "egress.security.insecure-local=false",
                        "egress.trust.certificate=" + app.certificate(),
                        "egress.trust.private-key=" + app.privateKey())
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure())
                            .rootCause()
                            .hasMessageStartingWith("egress.trust.border-ca: not set");
                });
        // A Border's certificate is not an App identity.
        TestPki.Issued border = pki.border("border-a");
        runner().withPropertyValues(
                        "egress.security.insecure-local=false",
                        "egress.trust.certificate=" + border.certificate(),
                        "egress.trust.private-key=" + border.privateKey(),
                        "egress.trust.border-ca=" + pki.caPem())
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure())
                            .rootCause()
                            .hasMessageContaining("spiffe://egress.local/border/border-a")
                            .hasMessageContaining("expected: spiffe://egress.local/app/<name>");
                });
    }

    @Test
    void startsWithoutARegistryWatcherWhenNoConnectionStringIsSet() throws Exception {
        runner().run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).hasSingleBean(EgressRouter.class);
            assertThat(context).doesNotHaveBean(RegistryWatcher.class);
            assertThat(context.getBean(EgressRouter.class).strategy()).isEqualTo("lowest-border-id");
            assertThat(context.getBean(EgressRouter.class).sharedStrategy()).isEqualTo("rendezvous");
        });
    }

    @Test
    void borderBreakersInheritTheSharedBaseConfig() throws Exception {
        runner().withPropertyValues(
                        "resilience4j.circuitbreaker.configs.default.sliding-window-size=7",
                        "resilience4j.circuitbreaker.configs.default.minimum-number-of-calls=5")
                .run(context -> {
                    var breaker = context.getBean(BorderBreakers.class).of(BorderId.of("border-x"));
                    assertThat(breaker.getName()).isEqualTo("border-border-x");
                    assertThat(breaker.getCircuitBreakerConfig().getSlidingWindowSize())
                            .isEqualTo(7);
                    assertThat(breaker.getCircuitBreakerConfig().getMinimumNumberOfCalls())
                            .isEqualTo(5);
                });
    }

    @Test
    void refusesToStartWithoutAValidTenantsFile() throws Exception {
        runner().withPropertyValues("egress.tenants.file=" + dir.resolve("missing.yaml"))
                .run(context ->
                        assertThat(context).hasFailed().getFailure().rootCause().hasMessageContaining("missing.yaml"));
        Path invalid = Files.writeString(dir.resolve("bad.yaml"), "tenants: [{id: a, dedicatedIps: [300.1.1.1]}]\n");
        runner().withPropertyValues("egress.tenants.file=" + invalid)
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("dedicatedIps[0]"));
    }

    @Test
    void selectsTheConfiguredStrategy() throws Exception {
        runner().withPropertyValues("egress.routing.strategy=weighted", "egress.routing.weights.border-a=3")
                .run(context -> assertThat(context.getBean(EgressRouter.class).strategy())
                        .isEqualTo("weighted"));
    }

    @Test
    void selectsTheConfiguredSharedPoolStrategy() throws Exception {
        runner().withPropertyValues("egress.routing.shared-strategy=round-robin")
                .run(context -> assertThat(context.getBean(EgressRouter.class).sharedStrategy())
                        .isEqualTo("round-robin"));
        runner().withPropertyValues("egress.routing.shared-strategy=random")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .hasStackTraceContaining(
                                "egress.routing.shared-strategy (or egress.routing.weights): strategy: 'random'"));
    }

    @Test
    void ownsThePollIntervalTheRegistryWatcherPollsAt() throws Exception {
        runner().run(context -> assertThat(context.getBean(WatcherPolling.class))
                .isInstanceOf(RoutingProperties.class)
                .extracting(WatcherPolling::pollInterval)
                .isEqualTo(Duration.ofMillis(500)));
        runner().withPropertyValues("egress.routing.poll-interval=200ms")
                .run(context -> assertThat(context.getBean(WatcherPolling.class).pollInterval())
                        .isEqualTo(Duration.ofMillis(200)));
    }

    @Test
    void refusesAZeroNegativeOrTooShortPollIntervalNamingTheProperty() throws Exception {
        for (String bad : List.of("0", "-1s", "9ms")) {
            runner().withPropertyValues("egress.routing.poll-interval=" + bad).run(context -> {
                assertThat(context).hasFailed();
                assertThat(new PropertyFailureAnalyzer()
                                .analyze(context.getStartupFailure())
                                .getDescription())
                        .startsWith("Invalid configuration: egress.routing.poll-interval: ")
                        .contains("expected: at least 10 ms");
            });
        }
        runner().withPropertyValues("egress.routing.poll-interval=10ms")
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void refusesATooShortClaimsSyncIntervalNamingTheProperty() throws Exception {
        runner().withPropertyValues("egress.routing.claims-sync-interval=9ms").run(context -> {
            assertThat(context).hasFailed();
            assertThat(new PropertyFailureAnalyzer()
                            .analyze(context.getStartupFailure())
                            .getDescription())
                    .startsWith("Invalid configuration: egress.routing.claims-sync-interval: ")
                    .contains("expected: at least 10 ms");
        });
        runner().run(context -> assertThat(
                        context.getBean(RoutingProperties.class).claimsSyncInterval())
                .isEqualTo(Duration.ofSeconds(1)));
    }

    @Test
    void refusesAnUnknownStrategy() throws Exception {
        runner().withPropertyValues("egress.routing.strategy=random")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .hasStackTraceContaining(
                                "egress.routing.strategy (or egress.routing.weights): strategy: 'random'"));
    }

    @Test
    void refusesARegistryTokenOverPlaintextUnlessInsecureLocal() throws Exception {
        // On the trust chain (insecure-local off), so that only the registry rule can refuse the start.
        TestPki pki = TestPki.create("registry token CA");
        TestPki.Issued app = pki.app("app-1");
        runner().withPropertyValues(
                        "egress.registry.connection-string=grpc://127.0.0.1:1/local",
                        "egress.registry.token=s3cret-ydb",
                        "egress.security.insecure-local=false",
                        "egress.trust.certificate=" + app.certificate(),
                        "egress.trust.private-key=" + app.privateKey(),
                        "egress.trust.border-ca=" + pki.caPem())
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .hasStackTraceContaining("egress.registry.token/token-file")
                        .hasStackTraceContaining("egress.security.insecure-local")
                        .satisfies(e -> assertThat(e.toString()).doesNotContain("s3cret")));
        runner().withPropertyValues(
                        "egress.registry.connection-string=grpc://127.0.0.1:1/local",
                        "egress.registry.token=s3cret-ydb",
                        "egress.security.insecure-local=true")
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(RegistryWatcher.class));
        runner().withPropertyValues("egress.registry.connection-string=grpc://127.0.0.1:1/local")
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(RegistryWatcher.class));
    }

    @Test
    void readsTheRegistryWithoutCreatingItUnlessTold() throws Exception {
        runner().run(context -> assertThat(
                        context.getBean(RegistryProperties.class).createIfMissing())
                .isFalse());
        runner().withPropertyValues("egress.registry.create-if-missing=true")
                .run(context -> assertThat(
                                context.getBean(RegistryProperties.class).createIfMissing())
                        .isTrue());
    }

    @Test
    void keepsSecretsOutOfToString() throws Exception {
        runner().withPropertyValues(
                        "egress.security.api-tokens=s3cret-1,s3cret-2", "egress.security.internal-token=s3cret-i")
                .run(context -> assertThat(
                                context.getBean(SecurityProperties.class).toString())
                        .doesNotContain("s3cret")
                        .contains("2 redacted"));
        runner().withPropertyValues("egress.registry.token=s3cret-ydb")
                .run(context -> assertThat(
                                context.getBean(RegistryProperties.class).toString())
                        .doesNotContain("s3cret")
                        .contains("token=(set)"));
    }

    @Test
    void refusesARegistryTokenFileThatCannotBeRead() throws Exception {
        runner().withPropertyValues(
                        "egress.registry.connection-string=grpc://127.0.0.1:1/local",
                        "egress.registry.token-file=/nonexistent/ydb-token")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .hasStackTraceContaining(
                                "egress.registry.token-file: /nonexistent/ydb-token (expected: a readable file)"));
    }
}
