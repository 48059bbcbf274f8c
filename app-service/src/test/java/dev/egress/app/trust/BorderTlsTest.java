package dev.egress.app.trust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.trust.IdentityKeyManager;
import dev.egress.discovery.trust.PeerTrustManager;
import dev.egress.discovery.trust.TlsProvider;
import dev.egress.discovery.trust.TrustFiles;
import dev.egress.discovery.trust.testing.TestPki;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.ReferenceCountedOpenSslEngine;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.KeyManagerFactoryWrapper;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.server.HttpServer;

/**
 * App's TLS to a Border under each provider, against real TLS servers on loopback: the handshake accepts only the
 * route's Border, runs on the chosen engine, and a new connection resumes the earlier session, checked again.
 */
class BorderTlsTest {

    private static TestPki borderCa;
    private static TestPki appCa;
    private static AppTrust.Material material;

    @BeforeAll
    static void pki() {
        borderCa = TestPki.create("border CA");
        appCa = TestPki.create("app CA");
        TestPki.Issued app = appCa.app("app-1");
        TrustFiles files = new TrustFiles(
                app.certificate().toString(),
                app.privateKey().toString(),
                "egress.trust.border-ca",
                borderCa.caPem().toString(),
                Duration.ofHours(1));
        material = new AppTrust.Material(files.watchIdentity(), files.watchPeerCa());
    }

    @AfterAll
    static void close() {
        material.identity().close();
        material.borderCa().close();
    }

    /** A Border stand-in: serves an identity and, as a Border does, checks App certificates of the App CA. */
    private record Server(DisposableServer server, PeerTrustManager apps) implements AutoCloseable {

        static Server start(TestPki.Issued identity, SslProvider provider) throws Exception {
            TrustFiles files = new TrustFiles(
                    identity.certificate().toString(),
                    identity.privateKey().toString(),
                    "egress.trust.app-ca",
                    appCa.caPem().toString(),
                    Duration.ofHours(1));
            PeerTrustManager apps = PeerTrustManager.apps(files.watchPeerCa(), "egress.local");
            SslContext context = SslContextBuilder.forServer(
                            new KeyManagerFactoryWrapper(new IdentityKeyManager(files.watchIdentity())))
                    .sslProvider(provider)
                    .trustManager(apps)
                    .clientAuth(ClientAuth.REQUIRE)
                    .build();
            DisposableServer server = HttpServer.create()
                    .host("127.0.0.1")
                    .port(0)
                    .secure(spec -> spec.sslContext(context))
                    .handle((request, response) -> response.sendString(Mono.just("ok")))
                    .bindNow();
            return new Server(server, apps);
        }

        String url() {
            return "https://127.0.0.1:" + server.port() + "/";
        }

        @Override
        public void close() {
            server.disposeNow();
        }
    }

    private static TlsProvider.Choice choice(TlsProvider provider) {
        if (provider == TlsProvider.OPENSSL) {
            assumeThat(OpenSsl.isAvailable())
                    .as("netty-tcnative does not load here: %s", OpenSsl.unavailabilityCause())
                    .isTrue();
        }
        return provider.choose();
    }

    /** A client secured for one Border that records the engine of every connection it opens. */
    private static HttpClient client(TlsProvider.Choice provider, String borderId, List<Class<?>> engines) {
        HttpClient plain = HttpClient.create()
                .newConnection()
                .responseTimeout(Duration.ofSeconds(10))
                .doOnConnected(connection -> engines.add(connection
                        .channel()
                        .pipeline()
                        .get(SslHandler.class)
                        .engine()
                        .getClass()));
        return new BorderTls(material, "egress.local", provider).secure(plain, BorderId.of(borderId), false);
    }

    private static String get(HttpClient client, String url) {
        return client.get()
                .uri(url)
                .responseSingle((r, body) -> body.asString())
                .block(Duration.ofSeconds(20));
    }

    @ParameterizedTest
    @EnumSource(
            value = TlsProvider.class,
            names = {"OPENSSL", "JDK"})
    void acceptsOnlyTheCertificateOfTheRoutesBorderOnTheChosenEngine(TlsProvider provider) throws Exception {
        TlsProvider.Choice chosen = choice(provider);
        List<Class<?>> engines = new CopyOnWriteArrayList<>();
        try (Server borderA = Server.start(borderCa.border("border-a"), SslProvider.JDK)) {
            assertThat(get(client(chosen, "border-a", engines), borderA.url())).isEqualTo("ok");
            // Same CA, same address, but the route names border-b: refused before a request byte is written.
            assertThatThrownBy(() -> get(client(chosen, "border-b", engines), borderA.url()))
                    .hasStackTraceContaining("certificate names [spiffe://egress.local/border/border-a]")
                    .hasStackTraceContaining("expected: spiffe://egress.local/border/border-b");
        }
        assertThat(engines)
                .isNotEmpty()
                .allSatisfy(engine -> assertThat(ReferenceCountedOpenSslEngine.class.isAssignableFrom(engine))
                        .as("OpenSSL engine: %s", engine.getName())
                        .isEqualTo(provider == TlsProvider.OPENSSL));
    }

    @ParameterizedTest
    @EnumSource(
            value = TlsProvider.class,
            names = {"OPENSSL", "JDK"})
    void refusesABorderCertificateOfAnotherAuthority(TlsProvider provider) throws Exception {
        TlsProvider.Choice chosen = choice(provider);
        TestPki rogue = TestPki.create("rogue CA");
        try (Server impostor = Server.start(rogue.border("border-a"), SslProvider.JDK)) {
            assertThatThrownBy(() -> get(client(chosen, "border-a", new CopyOnWriteArrayList<>()), impostor.url()))
                    .hasStackTraceContaining("not trusted");
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = TlsProvider.class,
            names = {"OPENSSL", "JDK"})
    void aNewConnectionToTheSameBorderResumesTheSessionAndIsCheckedAgain(TlsProvider provider) throws Exception {
        TlsProvider.Choice chosen = choice(provider);
        try (Server border = Server.start(borderCa.border("border-a"), chosen.provider())) {
            HttpClient client = client(chosen, "border-a", new CopyOnWriteArrayList<>());
            for (int i = 0; i < 3; i++) {
                assertThat(get(client, border.url())).isEqualTo("ok");
            }
            // Three connections (newConnection: no pooling), one full handshake: the Border re-checked App's
            // certificate on each resumed session instead of receiving it again.
            assertThat(border.apps().resumptions()).isEqualTo(2);
        }
    }

    @Test
    void choosesOpenSslWhereItLoads() {
        assumeThat(OpenSsl.isAvailable())
                .as("netty-tcnative does not load here: %s", OpenSsl.unavailabilityCause())
                .isTrue();
        assertThat(TlsProvider.AUTO.choose().provider()).isEqualTo(SslProvider.OPENSSL);
        assertThat(TlsProvider.JDK.choose().provider()).isEqualTo(SslProvider.JDK);
    }
}
