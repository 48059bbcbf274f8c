package dev.egress.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import com.standardwebhooks.Webhook;
import com.standardwebhooks.exceptions.WebhookVerificationException;
import dev.egress.discovery.web.testing.RecordingSink;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Signed webhooks through the real processes (App, one Border on the trust chain, the coordination node) to a
 * loopback receiver, verified there by the Standard Webhooks reference library — never by our own code: the
 * signature covers the bytes the receiver got, the {@code webhook-id} is the delivery's id, an idempotent
 * repeat is not sent (so not signed) again, a rotation of the signing secrets file carries both signatures
 * and then only the new one, a tenant that does not sign gets no such header, and a signing tenant without a
 * secret is refused before anything leaves.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SignedDeliveryIT {

    private static final SecureRandom RANDOM = new SecureRandom();

    /** A JSON payload whose bytes a re-encoding would change: what is signed must be what arrives. */
    private static final String PAYLOAD =
            "{\"amount\": 0.30000000000000000001, \"e\": 1E+2,\n  \"s\": \"caf\\u00e9 \u00e9t\u00e9\", \"a\": [ 1 , -0 ] }";

    private final String first = secret();
    private final String second = secret();
    private Path secretsFile;
    private Platform platform;
    private RecordingSink sink;

    private static String secret() {
        byte[] key = new byte[32];
        RANDOM.nextBytes(key);
        return "whsec_" + Base64.getEncoder().encodeToString(key);
    }

    @BeforeAll
    void start() throws Exception {
        sink = RecordingSink.start();
        secretsFile = Files.createTempDirectory("signing").resolve("signing-secrets.yaml");
        writeSecrets(first);
        platform = Platform.start(new Platform.Layout(
                Map.of("border-a", List.of("127.0.0.2", "127.0.0.3")),
                """
                sharedPool: [127.0.0.2]
                tenants:
                  - id: acme
                    dedicatedIps: [127.0.0.3]
                    signing: true
                  - id: plain
                  - id: forgotten
                    signing: true
                """,
                1,
                List.of(),
                List.of("--egress.signing.secrets-file=" + secretsFile, "--egress.signing.reload-interval=200ms")));
    }

    @AfterAll
    void stop() {
        if (platform != null) {
            platform.close();
        }
        if (sink != null) {
            sink.close();
        }
    }

    @BeforeEach
    void clearSink() throws IOException {
        sink.clear();
        sink.reply(RecordingSink.Reply.ok());
        await().atMost(Duration.ofSeconds(60))
                .until(() -> platform.liveBorders(0).equals(Set.of("border-a")));
        writeSecrets(first);
        awaitSignatures(1);
        sink.clear();
    }

    /** Writes the secrets file as a Secret's update does: a complete new file moved into place. */
    private void writeSecrets(String... secrets) throws IOException {
        String yaml = "acme: [" + String.join(", ", secrets) + "]\n";
        if (Files.exists(secretsFile) && Files.readString(secretsFile).equals(yaml)) {
            return;
        }
        Path tmp = Files.writeString(secretsFile.resolveSibling("secrets.tmp"), yaml);
        Files.move(tmp, secretsFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private Http.Response deliver(String tenant, String idempotencyKey) {
        String body = "{\"tenantId\":\"" + tenant + "\",\"url\":\"" + sink.baseUri() + "/hook\",\"payload\": " + PAYLOAD
                + "}";
        HttpRequest.Builder request = HttpRequest.newBuilder(platform.appUri(0, "/v1/deliveries"))
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json");
        if (idempotencyKey != null) {
            request.header("Idempotency-Key", idempotencyKey);
        }
        return platform.http.send(request, Platform.API_TOKEN);
    }

    private RecordingSink.Received deliveredOnce(Http.Response response) {
        assertThat(response.status()).as(response.text()).isEqualTo(200);
        assertThat(response.json().get("egressIp").asString()).isIn("127.0.0.2", "127.0.0.3");
        assertThat(sink.received()).hasSize(1);
        return sink.received().get(0);
    }

    /** Delivers until the App signs with as many secrets as the file now holds (a reload is polled). */
    private void awaitSignatures(int count) {
        await("App signs with " + count + " secret(s)")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(300))
                .until(() -> {
                    sink.clear();
                    Http.Response response = deliver("acme", null);
                    List<RecordingSink.Received> received = sink.received();
                    return response.status() == 200
                            && received.size() == 1
                            && received.get(0)
                                            .headers()
                                            .get("webhook-signature")
                                            .split(" ")
                                            .length
                                    == count;
                });
    }

    private static void verify(String secret, RecordingSink.Received received) throws Exception {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        received.headers().forEach((name, value) -> headers.put(name, List.of(value)));
        new Webhook(secret).verify(new String(received.bytes(), StandardCharsets.UTF_8), headers);
    }

    @Test
    void theReceiverVerifiesTheSignatureOfTheBytesItGotAndTheIdIsTheDeliverys() throws Exception {
        Http.Response response = deliver("acme", null);

        RecordingSink.Received received = deliveredOnce(response);
        assertThat(received.bytes()).isEqualTo(PAYLOAD.getBytes(StandardCharsets.UTF_8));
        assertThat(received.headers().get("webhook-id"))
                .isEqualTo(response.json().get("id").asString());
        assertThat(Long.parseLong(received.headers().get("webhook-timestamp")))
                .isCloseTo(Instant.now().getEpochSecond(), within(60L));
        assertThat(received.peer().getHostAddress()).isEqualTo("127.0.0.3");
        verify(first, received);
        assertThatThrownBy(() -> verify(second, received)).isInstanceOf(WebhookVerificationException.class);
    }

    @Test
    void anIdempotentRepeatIsAnsweredWithoutBeingSentOrSignedAgain() throws Exception {
        String key = "signed-" + System.nanoTime();
        Http.Response firstAnswer = deliver("acme", key);
        RecordingSink.Received received = deliveredOnce(firstAnswer);

        Http.Response repeat = deliver("acme", key);

        assertThat(repeat.status()).as(repeat.text()).isEqualTo(200);
        assertThat(repeat.json().get("id").asString())
                .isEqualTo(firstAnswer.json().get("id").asString());
        assertThat(sink.received()).hasSize(1);
        assertThat(received.headers().get("webhook-id"))
                .isEqualTo(firstAnswer.json().get("id").asString());
        verify(first, received);
    }

    @Test
    void aRotationCarriesBothSignaturesThenOnlyTheNewOne() throws Exception {
        writeSecrets(second, first);
        awaitSignatures(2);
        sink.clear();

        RecordingSink.Received during = deliveredOnce(deliver("acme", null));
        verify(first, during);
        verify(second, during);

        writeSecrets(second);
        awaitSignatures(1);
        sink.clear();

        RecordingSink.Received after = deliveredOnce(deliver("acme", null));
        verify(second, after);
        assertThatThrownBy(() -> verify(first, after)).isInstanceOf(WebhookVerificationException.class);
    }

    @Test
    void aTenantThatDoesNotSignGetsNoSignatureHeaders() {
        RecordingSink.Received received = deliveredOnce(deliver("plain", null));

        assertThat(received.headers()).doesNotContainKeys("webhook-id", "webhook-timestamp", "webhook-signature");
        assertThat(received.bytes()).isEqualTo(PAYLOAD.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aSigningTenantWithoutASecretIsRefusedAndNothingLeaves() {
        Http.Response response = deliver("forgotten", null);

        assertThat(response.status()).as(response.text()).isEqualTo(503);
        assertThat(response.problemSlug()).isEqualTo("unavailable");
        assertThat(response.json().get("reason").asString()).isEqualTo("no-signing-secret");
        assertThat(sink.received()).isEmpty();
    }
}
