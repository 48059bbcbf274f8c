import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Checks one received webhook's Standard Webhooks signature the way a receiver does, with the JDK alone, for
 * {@code ./run-local.sh --smoke}: {@code webhook-signature} must hold a {@code v1,<base64>} entry equal to the
 * base64 of HMAC-SHA256 over {@code <webhook-id>.<webhook-timestamp>.<body>}, keyed with the bytes of the secret's
 * base64 after {@code whsec_}, and the timestamp must lie within 5 minutes of now (receivers' default tolerance).
 *
 * <p>{@code java local/VerifyWebhook.java <whsec_secret> <webhook-id> <webhook-timestamp> <webhook-signature> <body>}
 * prints {@code valid} and exits 0, or prints why not and exits 1.
 */
public final class VerifyWebhook {

    private static final long TOLERANCE_SECONDS = 300;

    private VerifyWebhook() {
    }

    /**
     * Verifies.
     *
     * @param args the secret, the three headers' values and the body as received
     * @throws Exception if HMAC-SHA256 is unavailable
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.out.println("usage: VerifyWebhook <whsec_secret> <webhook-id> <webhook-timestamp> <webhook-signature> <body>");
            System.exit(2);
        }
        String secret = args[0];
        String id = args[1];
        String timestamp = args[2];
        String signatures = args[3];
        byte[] body = args[4].getBytes(StandardCharsets.UTF_8);
        if (!secret.startsWith("whsec_")) {
            fail("the secret does not start with whsec_");
        }
        long age = Math.abs(Instant.now().getEpochSecond() - Long.parseLong(timestamp));
        if (age > TOLERANCE_SECONDS) {
            fail("webhook-timestamp " + timestamp + " is " + age + " s away from now (tolerance: 300 s)");
        }
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(Base64.getDecoder().decode(secret.substring("whsec_".length())), "HmacSHA256"));
        mac.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
        byte[] expected = mac.doFinal(body);
        // One "v1,<base64>" entry per secret in use, space-separated (two during a rotation).
        for (String entry : signatures.trim().split(" +")) {
            if (entry.startsWith("v1,")) {
                byte[] given;
                try {
                    given = Base64.getDecoder().decode(entry.substring(3));
                } catch (IllegalArgumentException e) {
                    continue;
                }
                if (MessageDigest.isEqual(expected, given)) {
                    System.out.println("valid");
                    return;
                }
            }
        }
        fail("no v1 signature in '" + signatures + "' matches the body signed with this secret");
    }

    private static void fail(String why) {
        System.out.println(why);
        System.exit(1);
    }
}
