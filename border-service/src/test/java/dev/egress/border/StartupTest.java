package dev.egress.border;

import static dev.egress.discovery.web.testing.Exchanges.expectGet;
import static org.assertj.core.api.Assertions.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.InstanceOfAssertFactories.STRING;

import dev.egress.border.testing.BorderTestProperties;
import dev.egress.border.testing.InMemoryBorderRegistry;
import dev.egress.border.testing.InMemoryRegistryConfiguration;
import dev.egress.border.testing.Tokens;
import dev.egress.discovery.registry.RegistrationState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import org.assertj.core.api.ThrowableAssert;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpStatus;
import org.springframework.test.web.reactive.server.WebTestClient;

/** What the Border refuses to start with, and what readiness says before the slot is held. */
class StartupTest {

    /** The arguments every Border here starts with (port 0, an id, an advertised URL), then {@code args}. */
    private static String[] withBase(String... args) {
        String[] base = {
            "--server.port=0",
            "--egress.border.id=border-start",
            "--egress.border.advertised-url=http://127.0.0.1:8181",
            "--" + BorderTestProperties.LOOPBACK_IPS
        };
        String[] all = new String[base.length + args.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(args, 0, all, base.length, args.length);
        return all;
    }

    private static ConfigurableApplicationContext run(String... args) {
        return new SpringApplicationBuilder(BorderApplication.class, InMemoryRegistryConfiguration.class)
                .run(withBase(args));
    }

    private static WebTestClient web(ConfigurableApplicationContext border) {
        int port = ((WebServerApplicationContext) border).getWebServer().getPort();
        return WebTestClient.bindToServer()
                .baseUrl("http://127.0.0.1:" + port)
                .responseTimeout(Duration.ofSeconds(30))
                .build();
    }

    /** The operator's IP list read with the bearer token must answer with the status. */
    private static void expectOpsIps(WebTestClient web, String token, HttpStatus status) {
        web.get()
                .uri("/ops/v1/ips")
                .header("Authorization", "Bearer " + token)
                .exchange()
                .expectStatus()
                .isEqualTo(status)
                .expectBody()
                .returnResult();
    }

    private static Throwable root(ThrowableAssert.ThrowingCallable call) {
        Throwable[] caught = new Throwable[1];
        assertThatThrownBy(() -> {
                    try {
                        call.call();
                    } catch (Throwable t) {
                        caught[0] = t;
                        throw t;
                    }
                })
                .isNotNull();
        Throwable t = caught[0];
        StringBuilder chain = new StringBuilder();
        for (; t != null; t = t.getCause()) {
            chain.append(t.getMessage()).append('\n');
        }
        return new RuntimeException(chain.toString());
    }

    @Test
    void refusesToStartWhenADedicatedIpCannotBeBoundAndNamesTheIp() {
        // 192.0.2.1 (TEST-NET-1) is not on any interface here: bind fails locally, nothing is sent.
        Throwable failure = root(() -> run(
                "--egress.border.ips=127.0.0.2,192.0.2.1",
                "--egress.security.internal-token=" + Tokens.INTERNAL,
                "--egress.security.insecure-local=true"));
        assertThat(failure.getMessage()).contains("cannot bind 192.0.2.1").containsIgnoringCase("assign");
    }

    @Test
    void namesTheBindAddressAndItsPublicAddressWhenABindAddressIsNotOnThisHost() {
        // 192.0.2.1 is on no interface here: the bind check fails locally, nothing is sent.
        Throwable failure = root(() -> run(
                "--egress.border.ips=127.0.0.2,192.0.2.1=203.0.113.10",
                "--egress.security.internal-token=" + Tokens.INTERNAL,
                "--egress.security.insecure-local=true"));
        assertThat(failure.getMessage())
                .contains("egress.border.ips: cannot bind 192.0.2.1 (bind address of public address 203.0.113.10)");
    }

    @Test
    void refusesToStartWithAnUnspecifiedMulticastOrUnoptedLoopbackIpNamingTheIpAndTheRule() {
        String[][] cases = {
            {"--egress.border.ips=0.0.0.0", "egress.border.ips: '0.0.0.0': bind address 0.0.0.0 is unspecified"},
            {"--egress.border.ips=::", "egress.border.ips: '::': bind address :: is unspecified"},
            {"--egress.border.ips=224.0.0.1", "egress.border.ips: '224.0.0.1': bind address 224.0.0.1 is multicast"},
            {"--egress.border.ips=127.0.0.2,::ffff:127.0.0.2", "public address 127.0.0.2 is listed twice"},
        };
        for (String[] c : cases) {
            Throwable failure = root(() -> run(
                    c[0],
                    "--egress.security.internal-token=" + Tokens.INTERNAL,
                    "--egress.security.insecure-local=true"));
            assertThat(failure.getMessage()).as(c[0]).contains(c[1]);
        }
        // Without the opt-in (which every other case here has, from withBase), a loopback IP is refused.
        Throwable failure =
                root(() -> new SpringApplicationBuilder(BorderApplication.class, InMemoryRegistryConfiguration.class)
                        .run(
                                "--server.port=0",
                                "--egress.border.id=border-start",
                                "--egress.border.advertised-url=http://127.0.0.1:8181",
                                "--egress.border.ips=127.0.0.2",
                                "--egress.security.internal-token=" + Tokens.INTERNAL,
                                "--egress.security.insecure-local=true"));
        assertThat(failure.getMessage())
                .contains("egress.border.ips: '127.0.0.2': bind address 127.0.0.2 is loopback")
                .contains("egress.border.allow-loopback-ips=true");
    }

    @Test
    void refusesToStartWithAMalformedOrDuplicateIpEntryAndNamesTheEntry() {
        String[][] cases = {
            {"--egress.border.ips=127.0.0.2,127.0.0.5=", "egress.border.ips: '127.0.0.5=': missing public address"},
            {
                "--egress.border.ips=127.0.0.5=127.0.0.2,127.0.0.6=127.0.0.2",
                "egress.border.ips: '127.0.0.6=127.0.0.2': public address 127.0.0.2 is listed twice"
            }
        };
        for (String[] c : cases) {
            Throwable failure = root(() -> run(
                    c[0],
                    "--egress.security.internal-token=" + Tokens.INTERNAL,
                    "--egress.security.insecure-local=true"));
            assertThat(failure.getMessage()).as(c[0]).contains(c[1]);
        }
    }

    @Test
    void refusesToStartWhenTheTrustedCertificatesCannotBeReadAndNamesTheProperty() throws Exception {
        Path notPem = Files.createTempFile("not-a-ca", ".pem");
        Files.writeString(notPem, "not a certificate");
        for (String location : new String[] {"/nonexistent/ca.pem", notPem.toString()}) {
            Throwable failure = root(() -> run(
                    "--egress.border.ips=127.0.0.2",
                    "--egress.security.internal-token=" + Tokens.INTERNAL,
                    "--egress.security.insecure-local=true",
                    "--egress.tls.trusted-certificates=" + location));
            assertThat(failure.getMessage())
                    .contains("egress.tls.trusted-certificates")
                    .contains(location);
        }
    }

    @Test
    void refusesToStartWithABadSsrfOrDnsEntryAndNamesThePropertyAndTheEntry() {
        String[][] cases = {
            {"--egress.ssrf.allowed-ranges=127.0.0.1/32:9999,127.1", "egress.ssrf.allowed-ranges", "127.1"},
            {"--egress.ssrf.allowed-ranges=0x7f.0.0.1/32", "egress.ssrf.allowed-ranges", "0x7f.0.0.1/32"},
            {"--egress.ssrf.allowed-ranges=10.0.0.0/8:70000", "egress.ssrf.allowed-ranges", "10.0.0.0/8:70000"},
            {"--egress.ssrf.denied-ranges=10.96.0.0/12,10.1.2.3/8", "egress.ssrf.denied-ranges", "10.1.2.3/8"},
            {"--egress.dns.servers=dns.example:53", "egress.dns.servers", "dns.example:53"}
        };
        for (String[] c : cases) {
            Throwable failure = root(() -> run(
                    "--egress.border.ips=127.0.0.2",
                    "--egress.security.internal-token=" + Tokens.INTERNAL,
                    "--egress.security.insecure-local=true",
                    c[0]));
            assertThat(failure.getMessage()).as(c[0]).contains(c[1]).contains("'" + c[2] + "'");
        }
    }

    @Test
    void refusesToStartWithoutAnInternalToken() {
        Throwable failure = root(() -> run("--egress.border.ips=127.0.0.2"));
        assertThat(failure.getMessage()).contains("egress.security.internal-token");
    }

    @Test
    void startsWithoutTokensOnlyWhenInsecureLocalIsSetExplicitly() {
        try (ConfigurableApplicationContext border =
                run("--egress.border.ips=127.0.0.2", "--egress.security.insecure-local=true")) {
            expectGet(web(border), "/ops/v1/ips", HttpStatus.OK);
        }
    }

    @Test
    void isNotReadyUntilTheSlotIsHeldButAliveThroughout() {
        InMemoryBorderRegistry registry = new InMemoryBorderRegistry();
        registry.withholdSlot();
        try (ConfigurableApplicationContext border = new SpringApplicationBuilder(BorderApplication.class)
                .initializers(ctx -> ctx.getBeanFactory().registerSingleton("inMemoryBorderRegistry", registry))
                .run(withBase(
                        "--egress.border.ips=127.0.0.2",
                        "--egress.security.internal-token=" + Tokens.INTERNAL,
                        "--egress.security.insecure-local=true"))) {
            WebTestClient web = web(border);
            web.get()
                    .uri("/actuator/health/readiness")
                    .exchange()
                    .expectStatus()
                    .isEqualTo(503)
                    .expectBody()
                    .jsonPath("$.status")
                    .isEqualTo("OUT_OF_SERVICE");
            expectGet(web, "/actuator/health/liveness", HttpStatus.OK);

            registry.registration().moveTo(RegistrationState.REGISTERED);
            expectGet(web, "/actuator/health/readiness", HttpStatus.OK);
        }
    }

    @Test
    void readsTokensFromFilesAndFollowsARotationWithoutARestart(@TempDir Path dir) throws Exception {
        Path internal = Files.writeString(dir.resolve("internal"), Tokens.INTERNAL + "\n");
        Path operator = Files.writeString(dir.resolve("operator"), "operator-old\n");
        try (ConfigurableApplicationContext border = run(
                "--egress.border.ips=127.0.0.2",
                "--egress.security.internal-token-file=" + internal,
                "--egress.security.operator-token-file=" + operator,
                "--egress.security.insecure-local=true")) {
            WebTestClient web = web(border);
            expectOpsIps(web, "operator-old", HttpStatus.OK);

            Files.writeString(operator, "operator-new\n");
            Files.setLastModifiedTime(operator, FileTime.from(Instant.now().plusSeconds(10)));
            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> expectOpsIps(web, "operator-new", HttpStatus.OK));
            expectOpsIps(web, "operator-old", HttpStatus.UNAUTHORIZED);
        }
    }

    @Test
    void anEmptiedTokenFileRefusesEveryCallEvenInInsecureLocalMode(@TempDir Path dir) throws Exception {
        Path operator = Files.writeString(dir.resolve("operator"), "operator-old\n");
        try (ConfigurableApplicationContext border = run(
                "--egress.border.ips=127.0.0.2",
                "--egress.security.internal-token=" + Tokens.INTERNAL,
                "--egress.security.operator-token-file=" + operator,
                "--egress.security.insecure-local=true")) {
            WebTestClient web = web(border);
            expectOpsIps(web, "operator-old", HttpStatus.OK);

            Files.writeString(operator, "# revoked\n");
            Files.setLastModifiedTime(operator, FileTime.from(Instant.now().plusSeconds(10)));
            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> expectOpsIps(web, "operator-old", HttpStatus.UNAUTHORIZED));
            // insecure-local opens a door only when no token is configured, never when its file is emptied.
            web.get().uri("/ops/v1/ips").exchange().expectStatus().isUnauthorized();
            web.get()
                    .uri("/actuator/prometheus")
                    .exchange()
                    .expectStatus()
                    .isOk()
                    .expectBody(String.class)
                    .value(scrape -> assertThat(scrape.lines())
                            .filteredOn(line -> line.startsWith("egress_security_token_file_revoked{"))
                            .singleElement(as(STRING))
                            .contains("file=\"" + operator + "\"", "property=\"egress.security.operator-token-file\"")
                            .endsWith(" 1.0"));
        }
    }

    @Test
    void refusesToStartWithAnUnreadableTokenFileNamingTheProperty() {
        Throwable failure = root(() -> run(
                "--egress.border.ips=127.0.0.2",
                "--egress.security.internal-token-file=/nonexistent/internal-token",
                "--egress.security.insecure-local=true"));
        assertThat(failure.getMessage())
                .contains("egress.security.internal-token-file")
                .contains("/nonexistent/internal-token");
    }
}
