package dev.egress.app.signing;

import dev.egress.app.tenants.Tenant;
import dev.egress.app.tenants.TenantPolicyStore;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Signs a tenant's webhook as Standard Webhooks asks: {@code webhook-id}, {@code webhook-timestamp} (Unix
 * seconds) and {@code webhook-signature}, {@code v1,<base64 HMAC-SHA256 of id.timestamp.body>} with each of the
 * tenant's secrets, space-separated (two during a rotation). The one signer of both delivery paths: the
 * synchronous {@code POST /v1/deliveries} signs with the delivery's id, a durable delivery's worker with its
 * record's id on every attempt, so a receiver can de-duplicate by {@code webhook-id}.
 *
 * <p>Only tenants with {@code signing: true} in the tenants file are signed; their secrets come from the
 * signing secrets file, read at each call from its current snapshot, so a rotation applies to the next
 * webhook. A signing tenant without a secret is refused rather than sent unsigned: its receivers reject
 * unsigned webhooks, and an operator must see the missing secret.
 */
public final class WebhookSigner {

    /** The message's id header. */
    public static final String ID = "webhook-id";

    /** When the message was signed, in Unix seconds. */
    public static final String TIMESTAMP = "webhook-timestamp";

    /** The signatures, {@code v1,<base64>} each, space-separated. */
    public static final String SIGNATURE = "webhook-signature";

    private static final byte[] DOT = {'.'};
    private static final byte[] NO_BODY = {};

    private final TenantPolicyStore tenants;
    private final Supplier<SigningSecrets> secrets;
    private final Clock clock;

    WebhookSigner(TenantPolicyStore tenants, Supplier<SigningSecrets> secrets, Clock clock) {
        this.tenants = Objects.requireNonNull(tenants, "tenants");
        this.secrets = Objects.requireNonNull(secrets, "secrets");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * The signing tenants whose deliveries are refused now, for lack of a secret: an operator's mistake to see
     * before a customer does ({@code egress.signing.tenants.without.secret}).
     *
     * @return their ids
     */
    public List<String> tenantsWithoutSecret() {
        SigningSecrets current = secrets.get();
        return tenants.current().tenants().values().stream()
                .filter(tenant -> tenant.signing() && current.of(tenant.id()).isEmpty())
                .map(Tenant::id)
                .toList();
    }

    /**
     * The headers to send a webhook with: the caller's, and for a signing tenant the three Standard Webhooks
     * headers in place of any the caller gave under those names (in any case), so the receiver sees one
     * signature, ours. The body is read, never changed: what is signed is what the target receives.
     *
     * @param tenantId  the tenant
     * @param webhookId the webhook's id, the same on every attempt of one webhook
     * @param headers   the caller's headers
     * @param body      the body's bytes, or null for none (signed as empty)
     * @return {@code headers} itself for a tenant that does not sign, else a new map
     * @throws SigningUnavailableException for a signing tenant without a secret in the secrets file
     */
    public Map<String, String> sign(String tenantId, String webhookId, Map<String, String> headers, byte[] body) {
        Tenant tenant = tenants.current().tenants().get(tenantId);
        if (tenant == null || !tenant.signing()) {
            return headers;
        }
        List<SigningSecret> keys = secrets.get().of(tenantId);
        if (keys.isEmpty()) {
            throw new SigningUnavailableException(tenantId);
        }
        String timestamp = Long.toString(clock.instant().getEpochSecond());
        byte[] id = webhookId.getBytes(StandardCharsets.UTF_8);
        byte[] at = timestamp.getBytes(StandardCharsets.US_ASCII);
        byte[] payload = body == null ? NO_BODY : body;
        StringBuilder signatures = new StringBuilder(48 * keys.size());
        for (SigningSecret key : keys) {
            if (!signatures.isEmpty()) {
                signatures.append(' ');
            }
            signatures.append("v1,").append(key.sign(id, DOT, at, DOT, payload));
        }
        Map<String, String> signed = new LinkedHashMap<>(headers.size() + 3);
        headers.forEach((name, value) -> {
            if (!name.equalsIgnoreCase(ID) && !name.equalsIgnoreCase(TIMESTAMP) && !name.equalsIgnoreCase(SIGNATURE)) {
                signed.put(name, value);
            }
        });
        signed.put(ID, webhookId);
        signed.put(TIMESTAMP, timestamp);
        signed.put(SIGNATURE, signatures.toString());
        return signed;
    }
}
