package dev.egress.app.signing;

import static org.assertj.core.api.Assertions.assertThat;

import com.standardwebhooks.Webhook;
import dev.egress.app.routing.ClaimsSync;
import dev.egress.app.support.AppITSupport;
import dev.egress.app.support.BorderDouble;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.RoutingSnapshot;
import dev.egress.discovery.registry.RoutingTable;
import dev.egress.discovery.web.testing.RecordingSink;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The dispatcher signs once per delivery: a delivery that moves to another Border because the first could not
 * be reached arrives with the delivery's id and a signature the reference library verifies.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class SignedDispatchIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String SECRET = SigningSecretsTest.secret(32);
    private static final Path DIR;

    static {
        try {
            DIR = Files.createTempDirectory("signed-dispatch");
            Files.writeString(DIR.resolve("tenants.yaml"), """
                    sharedPool: [127.0.0.8]
                    tenants:
                      - id: signer
                        dedicatedIps: [127.0.0.2, 127.0.0.3]
                        signing: true
                    """);
            Files.writeString(DIR.resolve("secrets.yaml"), "signer: " + SECRET + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** AppITSupport's settings with a tenants file of its own (a signing tenant) and the secrets file. */
    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("egress.tenants.file", () -> DIR.resolve("tenants.yaml").toString());
        registry.add(
                "egress.signing.secrets-file", () -> DIR.resolve("secrets.yaml").toString());
        registry.add("egress.security.api-tokens", () -> AppITSupport.API_TOKEN);
        registry.add("egress.security.internal-token", () -> AppITSupport.INTERNAL_TOKEN);
        registry.add("egress.security.insecure-local", () -> "true");
    }

    @Autowired
    RoutingTable table;

    @Autowired
    ClaimsSync claims;

    @LocalServerPort
    int port;

    private void publish(Announcement... announcements) {
        RoutingSnapshot snapshot = RoutingSnapshot.fromAnnouncements(List.of(announcements), Instant.now());
        AppITSupport.placedByAnOperator(claims, snapshot);
        table.offer(snapshot);
    }

    private RecordingSink sink;
    private BorderDouble live;

    @BeforeEach
    void start() throws IOException {
        sink = RecordingSink.start();
        live = BorderDouble.start("b-live", AppITSupport.INTERNAL_TOKEN, Duration.ofSeconds(5), "127.0.0.3");
        // lowest-border-id tries a-dead first: nothing listens there, so the delivery moves on.
        publish(BorderDouble.unreachable("a-dead", "127.0.0.2"), live.announcement());
    }

    @AfterEach
    void stop() {
        publish();
        live.close();
        sink.close();
    }

    @Test
    void aDeliveryThatMovesToAnotherBorderArrivesSignedWithItsId() throws Exception {
        String payload = "{\"n\": 1.10,  \"s\": \"\u00e9\"}";
        byte[] answer = WebTestClient.bindToServer()
                .baseUrl("http://127.0.0.1:" + port)
                .responseTimeout(Duration.ofSeconds(60))
                .defaultHeader("Authorization", "Bearer " + AppITSupport.API_TOKEN)
                .build()
                .post()
                .uri("/v1/deliveries")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(
                        "{\"tenantId\":\"signer\",\"url\":\"" + sink.baseUri() + "/hook\",\"payload\":" + payload + "}")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult()
                .getResponseBody();
        JsonNode response = JSON.readTree(answer);

        assertThat(response.get("attempts")).hasSize(2);
        assertThat(response.get("attempts").get(0).get("borderId").asString()).isEqualTo("a-dead");
        assertThat(sink.received()).hasSize(1);
        RecordingSink.Received received = sink.received().get(0);
        assertThat(received.bytes()).isEqualTo(payload.getBytes(StandardCharsets.UTF_8));
        assertThat(received.headers().get("webhook-id"))
                .isEqualTo(response.get("id").asString());
        Map<String, List<String>> headers = new LinkedHashMap<>();
        received.headers().forEach((name, value) -> headers.put(name, List.of(value)));
        new Webhook(SECRET).verify(received.body(), headers);
    }
}
