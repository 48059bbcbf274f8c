package dev.egress.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.app.AppApplication;
import dev.egress.discovery.registry.AnnouncedIp;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.AnnouncementCodec;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.registry.RoutingTable;
import dev.egress.discovery.trust.AnnouncementSigner;
import dev.egress.discovery.trust.AnnouncementVerifier;
import dev.egress.discovery.trust.Identity;
import dev.egress.discovery.trust.testing.TestPki;
import dev.egress.discovery.web.testing.RecordingSink;
import dev.egress.ydb.coordination.EmbeddedCoordinationNode;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import tech.ydb.coordination.CoordinationClient;
import tech.ydb.coordination.CoordinationSession;
import tech.ydb.coordination.description.SemaphoreDescription;
import tech.ydb.coordination.settings.DescribeSemaphoreMode;
import tech.ydb.core.grpc.GrpcTransport;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The attacks of the trust-chain issue, tried against a real Border process, the embedded
 * coordination node and this App on the secure path. Each attacker writes to the registry through a
 * real SDK session (the registry is shared storage anyone with credentials can write), while acme's
 * deliveries keep flowing from acme's IPs and nothing reaches the attacker's endpoint. On a platform
 * without authenticated announcements, {@code 0-rogue} sorts before {@code border-a} and would take
 * acme's traffic under {@code lowest-border-id}. Then the attacks of the third round: a Border whose real
 * certificate does not name an IP it claims, a second authorised claim for a dedicated IP, and a signed
 * slot replayed after its Border's operator disabled the IP and the Border stopped.
 */
@SpringBootTest(classes = AppApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
// The in-process App stops with the class: the platform tests after it in this JVM get the cores to themselves.
@DirtiesContext
class TrustChainIT {

    private static final String API_TOKEN = "trust-api-token";
    private static final String INTERNAL_TOKEN = "trust-internal-token";
    private static final Set<String> ACME_IPS = Set.of("127.0.0.3", "127.0.0.4");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    static EmbeddedCoordinationNode node;
    static RecordingSink sink;
    static TestBorder borderA;
    static Path tenants;
    static TestTrust trust;
    static TestPki rogueCa;

    @Autowired
    RoutingTable table;

    @LocalServerPort
    int port;

    private final List<AutoCloseable> attackers = new ArrayList<>();

    @BeforeAll
    static void startSystem() throws Exception {
        trust = TestTrust.shared();
        rogueCa = TestPki.create("rogue CA");
        node = EmbeddedCoordinationNode.start(0);
        sink = RecordingSink.start();
        tenants = Files.createTempFile("trust-it", ".yaml");
        Files.writeString(tenants, """
                sharedPool: [127.0.0.2]
                tenants:
                  - id: acme
                    dedicatedIps: [127.0.0.3, 127.0.0.4]
                  - id: beta
                    dedicatedIps: [127.0.0.6]
                  - id: gamma
                    dedicatedIps: [127.0.0.7]
                  - id: small-co
                """);
        borderA = TestBorder.start(
                "border-a",
                List.of("127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.6"),
                node.connectionString(),
                INTERNAL_TOKEN,
                trust);
        assertThat(borderA.awaitReadyOrExit())
                .as("border-a ready; log: target/system-logs/border-a.log")
                .isTrue();
    }

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("egress.registry.connection-string", () -> node.connectionString());
        registry.add("egress.tenants.file", () -> tenants.toString());
        registry.add("egress.security.api-tokens", () -> API_TOKEN);
        registry.add("egress.security.internal-token", () -> INTERNAL_TOKEN);
        registry.add("egress.routing.poll-interval", () -> "200ms");
        // Shared-pool tenants by Border id too, so that a test knows which Border is tried first.
        registry.add("egress.routing.shared-strategy", () -> "lowest-border-id");
        TestTrust.shared().appProperties(registry);
    }

    @AfterAll
    static void stopSystem() throws Exception {
        if (borderA != null) {
            borderA.close();
        }
        if (sink != null) {
            sink.close();
        }
        if (node != null) {
            node.close();
        }
    }

    @BeforeEach
    void waitForBorderA() {
        sink.clear();
        sink.reply(RecordingSink.Reply.ok());
        await().atMost(Duration.ofSeconds(60))
                .until(() -> table.isReady() && table.current().announcements().containsKey(BorderId.of("border-a")));
    }

    @AfterEach
    void stopAttackers() throws Exception {
        // Newest first: a session closes before its transport.
        for (int i = attackers.size() - 1; i >= 0; i--) {
            attackers.get(i).close();
        }
        attackers.clear();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> table.latestRejections().isEmpty());
    }

    @Test
    void rogueWriterCannotDivertAcmeToItsEndpoint() throws Exception {
        RecordingSink rogueHttp = track(RecordingSink.start());
        RecordingSink rogueHttps = track(RecordingSink.startHttps(TestPki.context(rogueCa.border("0-rogue"))));
        List<AnnouncedIp> acmeActive = List.of(
                new AnnouncedIp(EgressIp.of("127.0.0.3"), IpStatus.ACTIVE),
                new AnnouncedIp(EgressIp.of("127.0.0.4"), IpStatus.ACTIVE));
        // Unsigned, as a writer without any key would publish it.
        hold(new AnnouncementCodec()
                .encode(Announcement.initial(BorderId.of("0-rogue"), rogueHttp.baseUri(), acmeActive, Instant.now())));
        // Signed with a key of the attacker's own CA.
        hold(new AnnouncementSigner(() -> identity(rogueCa.border("0-rogue")))
                .write(Announcement.initial(
                        BorderId.of("0-rogue"),
                        URI.create("https://127.0.0.1:" + rogueHttps.port()),
                        acmeActive,
                        Instant.now())));

        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(rejected())
                        .containsExactlyInAnyOrder("0-rogue:unsigned", "0-rogue:untrusted-certificate"));
        for (int i = 0; i < 20; i++) {
            JsonNode delivery = deliver("acme");
            assertThat(delivery.get("borderId").asString()).isEqualTo("border-a");
            assertThat(ACME_IPS).contains(delivery.get("egressIp").asString());
        }
        assertThat(sink.received()).hasSize(20);
        assertThat(peers()).isSubsetOf(ACME_IPS);
        assertThat(rogueHttp.received()).isEmpty();
        assertThat(rogueHttps.received()).isEmpty();
        assertThat(table.current().announcements()).containsOnlyKeys(BorderId.of("border-a"));
    }

    @Test
    void forgedAnnouncementReusingBorderAsIdCannotDisableItsIps() throws Exception {
        List<AnnouncedIp> disabled = List.of(
                new AnnouncedIp(EgressIp.of("127.0.0.3"), IpStatus.DISABLED),
                new AnnouncedIp(EgressIp.of("127.0.0.4"), IpStatus.DISABLED));
        Announcement forged = new Announcement(
                Announcement.CURRENT_VERSION,
                BorderId.of("border-a"),
                URI.create("https://127.0.0.1:9"),
                disabled,
                Instant.now().plusSeconds(10),
                Long.MAX_VALUE / 2);
        hold(new AnnouncementCodec().encode(forged));
        hold(new AnnouncementSigner(() -> identity(rogueCa.border("border-a"))).write(forged));
        // A Border holding a real certificate, but its own: it cannot speak for border-a.
        hold(new AnnouncementSigner(() -> identity(trust.borderCa().border("border-b"))).write(forged));

        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(rejected())
                        .containsExactlyInAnyOrder(
                                "border-a:unsigned", "border-a:untrusted-certificate", "border-a:identity-mismatch"));
        assertThat(table.current().duplicateBorders()).isEmpty();
        assertThat(table.current().announcements().get(BorderId.of("border-a")).statusOf(EgressIp.of("127.0.0.3")))
                .contains(IpStatus.ACTIVE);
        for (int i = 0; i < 10; i++) {
            assertThat(ACME_IPS).contains(deliver("acme").get("egressIp").asString());
        }
        assertThat(peers()).isSubsetOf(ACME_IPS);
    }

    @Test
    void borderEndpointThatCannotProveTheAnnouncedIdGetsNothingAndTheDeliveryMovesOn() throws Exception {
        // An operator-issued identity signs the announcement of "0-imposter" for the shared IP its certificate
        // names, but the server at its endpoint presents another CA's certificate for that id, or a real
        // certificate naming border-b. (On a dedicated IP of border-a the second claim would fail closed
        // before any handshake: see the test below.)
        Identity imposter = identity(trust.borderCa().border("0-imposter", "127.0.0.2"));
        RecordingSink otherCa = track(RecordingSink.startHttps(TestPki.context(rogueCa.border("0-imposter"))));
        RecordingSink otherId =
                track(RecordingSink.startHttps(TestPki.context(trust.borderCa().border("border-b"))));
        for (RecordingSink server : List.of(otherCa, otherId)) {
            CoordinationSession slot = hold(new AnnouncementSigner(() -> imposter)
                    .write(Announcement.initial(
                            BorderId.of("0-imposter"), URI.create("https://127.0.0.1:" + server.port()),
                            List.of(new AnnouncedIp(EgressIp.of("127.0.0.2"), IpStatus.ACTIVE)), Instant.now())));
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> table.current().announcements().containsKey(BorderId.of("0-imposter")));

            JsonNode delivery = deliver("small-co");

            // lowest-border-id tried 0-imposter first; the handshake refused it before a byte was sent.
            assertThat(delivery.get("attempts").get(0).get("borderId").asString())
                    .isEqualTo("0-imposter");
            assertThat(delivery.get("attempts").get(0).get("outcome").asString())
                    .isEqualTo("border-unverified");
            assertThat(delivery.get("borderId").asString()).isEqualTo("border-a");
            assertThat(server.received()).isEmpty();
            slot.close();
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> !table.current().announcements().containsKey(BorderId.of("0-imposter")));
        }
    }

    @Test
    void aSecondAuthorisedClaimForADedicatedIpFailsClosedInsteadOfPickingByBorderId() throws Exception {
        // "0-twin" holds an operator-issued certificate naming 127.0.0.3 (a misissued or stolen credential) and
        // a server that proves the id: under lowest-border-id it would have taken acme's 127.0.0.3 traffic.
        TestPki.Issued twin = trust.borderCa().border("0-twin", "127.0.0.3");
        RecordingSink twinServer = track(RecordingSink.startHttps(TestPki.context(twin)));
        hold(new AnnouncementSigner(() -> identity(twin))
                .write(Announcement.initial(
                        BorderId.of("0-twin"),
                        URI.create("https://127.0.0.1:" + twinServer.port()),
                        List.of(new AnnouncedIp(EgressIp.of("127.0.0.3"), IpStatus.ACTIVE)),
                        Instant.now())));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> table.current().announcements().containsKey(BorderId.of("0-twin")));

        for (int i = 0; i < 10; i++) {
            JsonNode delivery = deliver("acme");
            assertThat(delivery.get("borderId").asString()).isEqualTo("border-a");
            assertThat(delivery.get("egressIp").asString()).isEqualTo("127.0.0.4");
            assertThat(delivery.get("attempts")).hasSize(1);
        }
        assertThat(twinServer.received()).isEmpty();
        assertThat(peers()).containsExactly("127.0.0.4");
        JsonNode ips = getJson("/v1/egress/ips");
        assertThat(ips.get("conflicts").toString())
                .contains("\"ip\":\"127.0.0.3\"")
                .contains("0-twin");
        JsonNode egress = getJson("/v1/tenants/acme/egress");
        assertThat(egress.get("ips").toString())
                .contains("{\"ip\":\"127.0.0.3\",\"available\":false}")
                .contains("{\"ip\":\"127.0.0.4\",\"available\":true}");
    }

    @Test
    void aSecondAuthorisedClaimStaysAConflictWhileTheOwnerIsDisabled() throws Exception {
        // The runbook's own remedy (DISABLE the IP on its Border) used to hand 127.0.0.3 to any other Border whose
        // certificate names it, and clear the alert: the owner's status must not matter.
        TestPki.Issued twin = trust.borderCa().border("0-twin", "127.0.0.3");
        RecordingSink twinServer = track(RecordingSink.startHttps(TestPki.context(twin)));
        hold(new AnnouncementSigner(() -> identity(twin))
                .write(Announcement.initial(
                        BorderId.of("0-twin"),
                        URI.create("https://127.0.0.1:" + twinServer.port()),
                        List.of(new AnnouncedIp(EgressIp.of("127.0.0.3"), IpStatus.ACTIVE)),
                        Instant.now())));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> table.current().announcements().containsKey(BorderId.of("0-twin")));
        try {
            assertThat(borderA.setStatus("127.0.0.3", "DISABLED")).isEqualTo(200);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> Optional.ofNullable(
                                    table.current().announcements().get(BorderId.of("border-a")))
                            .flatMap(a -> a.statusOf(EgressIp.of("127.0.0.3")))
                            .filter(IpStatus.DISABLED::equals)
                            .isPresent());

            for (int i = 0; i < 10; i++) {
                JsonNode delivery = deliver("acme");
                assertThat(delivery.get("egressIp").asString()).isEqualTo("127.0.0.4");
                assertThat(delivery.get("borderId").asString()).isEqualTo("border-a");
            }
            assertThat(twinServer.received()).isEmpty();
            assertThat(getJson("/v1/egress/ips").get("conflicts").toString())
                    .contains("\"ip\":\"127.0.0.3\"")
                    .contains("0-twin");
        } finally {
            assertThat(borderA.setStatus("127.0.0.3", "ACTIVE")).isEqualTo(200);
        }
    }

    @Test
    void aBorderWithAValidCertificateClaimingAnIpItsCertificateDoesNotNameTakesNoWebhook() throws Exception {
        // A real Border process with a real credential for "border-0" (which sorts before border-a), naming
        // 127.0.0.5 only, configured to announce beta's 127.0.0.6 as well: the stolen-key attack.
        TestBorder thief = track(TestBorder.start(
                "border-0",
                List.of("127.0.0.5", "127.0.0.6"),
                List.of("127.0.0.5"),
                node.connectionString(),
                INTERNAL_TOKEN,
                trust));
        assertThat(thief.awaitReadyOrExit())
                .as("border-0 ready (registered); log: target/system-logs/border-0.log")
                .isTrue();

        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(rejected()).containsExactly("border-0:ip-not-authorised"));
        assertThat(getJson("/v1/egress/ips")
                        .get("rejected")
                        .get(0)
                        .get("detail")
                        .asString())
                .contains("[127.0.0.6]");
        for (int i = 0; i < 6; i++) {
            JsonNode delivery = deliver("beta");
            assertThat(delivery.get("borderId").asString()).isEqualTo("border-a");
            assertThat(delivery.get("egressIp").asString()).isEqualTo("127.0.0.6");
        }
        assertThat(peers()).containsExactly("127.0.0.6");
        // Rejected as a whole: not even the IP it may announce is routed through it.
        assertThat(table.current().announcements()).doesNotContainKey(BorderId.of("border-0"));
        assertThat(table.current().routes(EgressIp.of("127.0.0.5"))).isEmpty();
    }

    @Test
    void aReplayedSlotOfAStoppedBorderDoesNotBringBackTheIpItsOperatorDisabled() throws Exception {
        TestBorder borderR =
                TestBorder.start("border-r", List.of("127.0.0.7"), node.connectionString(), INTERNAL_TOKEN, trust);
        byte[] captured;
        try {
            assertThat(borderR.awaitReadyOrExit())
                    .as("border-r ready; log: target/system-logs/border-r.log")
                    .isTrue();
            await().atMost(Duration.ofSeconds(30)).until(() -> gammaAvailable());
            // A registry reader captures border-r's signed slot data, exactly as App reads it.
            captured = slotDataOf("border-r");

            assertThat(borderR.setStatus("127.0.0.7", "DISABLED")).isEqualTo(200);
            await().atMost(Duration.ofSeconds(30)).until(() -> !gammaAvailable());
        } finally {
            borderR.close();
        }
        await().atMost(Duration.ofSeconds(30))
                .until(() -> !table.current().announcements().containsKey(BorderId.of("border-r")));

        hold(captured);

        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(rejected()).containsExactly("border-r:replayed"));
        assertThat(gammaAvailable()).isFalse();
        assertThat(table.current().announcements()).doesNotContainKey(BorderId.of("border-r"));
    }

    @Test
    void borderRefusesAForwardFromAClientWithoutAnAppCertificate() throws Exception {
        String body = "{\"deliveryId\":\"d-1\",\"sourceIp\":\"127.0.0.3\",\"url\":\"" + sink.baseUri() + "/hook\","
                + "\"method\":\"POST\",\"headers\":{},\"body\":\"{}\"}";
        HttpResponse<String> response = trust.operatorClient()
                .send(
                        HttpRequest.newBuilder(
                                        URI.create("https://127.0.0.1:" + borderA.port() + "/internal/v1/egress"))
                                .header("Authorization", "Bearer " + INTERNAL_TOKEN)
                                .header("Content-Type", "application/json")
                                .timeout(Duration.ofSeconds(30))
                                .POST(HttpRequest.BodyPublishers.ofString(body))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(response.body()).contains("client-certificate-required");
        assertThat(sink.received()).isEmpty();
    }

    // ---- helpers ----

    private <T extends AutoCloseable> T track(T attacker) {
        attackers.add(attacker);
        return attacker;
    }

    /** A registry writer: its own SDK session holding a slot of borders-registry with {@code data}. */
    private CoordinationSession hold(byte[] data) {
        GrpcTransport transport =
                track(GrpcTransport.forConnectionString(node.connectionString()).build());
        CoordinationSession session = CoordinationClient.newClient(transport).createSession("egress");
        assertThat(session.connect().join().isSuccess()).isTrue();
        track(session::close);
        assertThat(session.acquireSemaphore("borders-registry", 1, data, Duration.ofSeconds(5))
                        .join()
                        .isSuccess())
                .isTrue();
        return session;
    }

    /** A registry reader's copy of one Border's slot data: described with the owners, as App reads it. */
    private byte[] slotDataOf(String borderId) {
        GrpcTransport transport =
                track(GrpcTransport.forConnectionString(node.connectionString()).build());
        CoordinationSession session = CoordinationClient.newClient(transport).createSession("egress");
        assertThat(session.connect().join().isSuccess()).isTrue();
        try {
            SemaphoreDescription description = session.describeSemaphore(
                            "borders-registry", DescribeSemaphoreMode.WITH_OWNERS)
                    .join()
                    .getValue();
            for (SemaphoreDescription.Session owner : description.getOwnersList()) {
                if (AnnouncementVerifier.unverifiedForInsecureLocal()
                        .read(owner.getData())
                        .borderId()
                        .value()
                        .equals(borderId)) {
                    return owner.getData();
                }
            }
            throw new AssertionError("no slot of " + borderId + " in "
                    + description.getOwnersList().size() + " owners");
        } finally {
            session.close();
        }
    }

    private boolean gammaAvailable() {
        return getJson("/v1/tenants/gamma/egress").get("available").booleanValue();
    }

    private JsonNode getJson(String path) {
        byte[] body = WebTestClient.bindToServer()
                .baseUrl("http://127.0.0.1:" + port)
                .responseTimeout(Duration.ofSeconds(60))
                .build()
                .get()
                .uri(path)
                .header("Authorization", "Bearer " + API_TOKEN)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult()
                .getResponseBody();
        return JSON.readTree(body);
    }

    private static Identity identity(TestPki.Issued issued) {
        return TestPki.identity(issued);
    }

    private JsonNode deliver(String tenant) {
        byte[] body = WebTestClient.bindToServer()
                .baseUrl("http://127.0.0.1:" + port)
                .responseTimeout(Duration.ofSeconds(60))
                .build()
                .post()
                .uri("/v1/deliveries")
                .header("Authorization", "Bearer " + API_TOKEN)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("tenantId", tenant, "url", sink.baseUri() + "/hook", "payload", Map.of("n", 1)))
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult()
                .getResponseBody();
        return JSON.readTree(body);
    }

    /** The rejected list of GET /v1/egress/ips as "claimedBorderId:reason". */
    private List<String> rejected() {
        byte[] body = WebTestClient.bindToServer()
                .baseUrl("http://127.0.0.1:" + port)
                .responseTimeout(Duration.ofSeconds(60))
                .build()
                .get()
                .uri("/v1/egress/ips")
                .header("Authorization", "Bearer " + API_TOKEN)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult()
                .getResponseBody();
        List<String> rejected = new ArrayList<>();
        for (JsonNode entry : JSON.readTree(body).get("rejected")) {
            rejected.add(
                    entry.get("borderId").asString() + ":" + entry.get("reason").asString());
        }
        return rejected;
    }

    private Set<String> peers() {
        return sink.received().stream().map(r -> r.peer().getHostAddress()).collect(Collectors.toSet());
    }
}
