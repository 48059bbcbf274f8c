package dev.egress.app.signing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.standardwebhooks.Webhook;
import com.standardwebhooks.exceptions.WebhookVerificationException;
import dev.egress.app.tenants.TenantPolicyStore;
import dev.egress.app.tenants.TenantsProperties;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The signer's headers, verified with the Standard Webhooks reference library (never with our own HMAC).
 */
class WebhookSignerTest {

    private static final String BODY = "{\"amount\": 0.30000000000000000001,\n \"name\": \"caf\u00e9 \ud83d\ude00\"}";

    @TempDir
    Path dir;

    private final String current = SigningSecretsTest.secret(32);
    private final String previous = SigningSecretsTest.secret(24);
    private final AtomicReference<SigningSecrets> secrets = new AtomicReference<>();
    private final Instant now = Instant.now();
    private TenantPolicyStore tenants;
    private WebhookSigner signer;

    @BeforeEach
    void start() throws Exception {
        Path file = Files.writeString(dir.resolve("tenants.yaml"), """
                sharedPool: [127.0.0.8]
                tenants:
                  - id: acme
                    signing: true
                  - id: rotating
                    signing: true
                  - id: forgotten
                    signing: true
                  - id: plain
                """);
        tenants = new TenantPolicyStore(
                new TenantsProperties(file, Duration.ofHours(1)), new SimpleMeterRegistry(), Clock.systemUTC());
        secrets.set(
                secrets("acme: %s\nrotating: [%s, %s]\nplain: %s\n".formatted(current, current, previous, current)));
        signer = new WebhookSigner(tenants, secrets::get, Clock.fixed(now, ZoneOffset.UTC));
    }

    @AfterEach
    void stop() {
        tenants.close();
    }

    private static SigningSecrets secrets(String yaml) {
        return SigningSecrets.parse(yaml.getBytes(StandardCharsets.UTF_8));
    }

    private static Map<String, List<String>> multi(Map<String, String> headers) {
        Map<String, List<String>> multi = new LinkedHashMap<>();
        headers.forEach((name, value) -> multi.put(name, List.of(value)));
        return multi;
    }

    private static void verify(String secret, String body, Map<String, String> headers) throws Exception {
        new Webhook(secret).verify(body, multi(headers));
    }

    @Test
    void signsTheBodysBytesWithTheIdAndTimestampAsTheReferenceLibraryVerifies() throws Exception {
        Map<String, String> headers = signer.sign(
                "acme", "d-1", Map.of("Content-Type", "application/json"), BODY.getBytes(StandardCharsets.UTF_8));

        assertThat(headers)
                .containsEntry("Content-Type", "application/json")
                .containsEntry("webhook-id", "d-1")
                .containsEntry("webhook-timestamp", Long.toString(now.getEpochSecond()));
        assertThat(headers.get("webhook-signature")).startsWith("v1,").doesNotContain(" ");
        verify(current, BODY, headers);
    }

    @Test
    void aSignatureDoesNotVerifyForAnotherBodyIdOrSecret() {
        Map<String, String> headers = signer.sign("acme", "d-1", Map.of(), BODY.getBytes(StandardCharsets.UTF_8));

        assertThatThrownBy(() -> verify(current, BODY + " ", headers)).isInstanceOf(WebhookVerificationException.class);
        Map<String, String> otherId = new LinkedHashMap<>(headers);
        otherId.put("webhook-id", "d-2");
        assertThatThrownBy(() -> verify(current, BODY, otherId)).isInstanceOf(WebhookVerificationException.class);
        assertThatThrownBy(() -> verify(previous, BODY, headers)).isInstanceOf(WebhookVerificationException.class);
    }

    @Test
    void duringARotationCarriesTwoSignaturesEachVerifyingWithItsOwnSecret() throws Exception {
        Map<String, String> headers = signer.sign("rotating", "d-3", Map.of(), BODY.getBytes(StandardCharsets.UTF_8));

        assertThat(headers.get("webhook-signature").split(" ")).hasSize(2).allMatch(s -> s.startsWith("v1,"));
        verify(current, BODY, headers);
        verify(previous, BODY, headers);
    }

    @Test
    void aNewSecretsSnapshotAppliesToTheNextWebhook() throws Exception {
        String next = SigningSecretsTest.secret(32);
        secrets.set(secrets("acme: [%s, %s]".formatted(next, current)));
        Map<String, String> both = signer.sign("acme", "d-4", Map.of(), BODY.getBytes(StandardCharsets.UTF_8));
        secrets.set(secrets("acme: %s".formatted(next)));
        Map<String, String> after = signer.sign("acme", "d-5", Map.of(), BODY.getBytes(StandardCharsets.UTF_8));

        verify(next, BODY, both);
        verify(current, BODY, both);
        verify(next, BODY, after);
        assertThatThrownBy(() -> verify(current, BODY, after)).isInstanceOf(WebhookVerificationException.class);
    }

    @Test
    void aWebhookWithoutABodyIsSignedAsAnEmptyOne() throws Exception {
        verify(current, "", signer.sign("acme", "d-6", Map.of(), null));
    }

    @Test
    void replacesTheCallersOwnWebhookHeadersInAnyCase() throws Exception {
        Map<String, String> caller = new LinkedHashMap<>();
        caller.put("Webhook-Id", "forged");
        caller.put("WEBHOOK-SIGNATURE", "v1,forged");
        caller.put("webhook-timestamp", "1");
        caller.put("X-Trace", "t");

        Map<String, String> headers = signer.sign("acme", "d-7", caller, BODY.getBytes(StandardCharsets.UTF_8));

        assertThat(headers.keySet()).containsExactly("X-Trace", "webhook-id", "webhook-timestamp", "webhook-signature");
        verify(current, BODY, headers);
    }

    @Test
    void leavesATenantThatDoesNotSignUntouchedEvenWithASecret() {
        Map<String, String> caller = Map.of("webhook-id", "the caller's own");

        assertThat(signer.sign("plain", "d-8", caller, new byte[] {1})).isSameAs(caller);
        assertThat(signer.sign("unknown", "d-8", caller, new byte[] {1})).isSameAs(caller);
    }

    @Test
    void refusesASigningTenantWithoutASecretRatherThanSendingItUnsigned() {
        assertThatThrownBy(() -> signer.sign("forgotten", "d-9", Map.of(), new byte[0]))
                .isInstanceOfSatisfying(SigningUnavailableException.class, e -> {
                    assertThat(e.status().value()).isEqualTo(503);
                    assertThat(e.slug()).isEqualTo("unavailable");
                    assertThat(e.problem().reason().code()).isEqualTo("no-signing-secret");
                    assertThat(e.getMessage()).contains("'forgotten'");
                });
        secrets.set(SigningSecrets.NONE);
        assertThatThrownBy(() -> signer.sign("acme", "d-9", Map.of(), new byte[0]))
                .isInstanceOf(SigningUnavailableException.class);
        assertThatCode(() -> signer.sign("plain", "d-9", Map.of(), new byte[0])).doesNotThrowAnyException();
    }

    @Test
    void namesTheSigningTenantsWithoutASecret() {
        assertThat(signer.tenantsWithoutSecret()).containsExactly("forgotten");

        secrets.set(SigningSecrets.NONE);

        assertThat(signer.tenantsWithoutSecret()).containsExactlyInAnyOrder("acme", "rotating", "forgotten");
    }
}
