package dev.egress.app.signing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SigningSecretsTest {

    private static final SecureRandom RANDOM = new SecureRandom();

    static String secret(int bytes) {
        byte[] key = new byte[bytes];
        RANDOM.nextBytes(key);
        return "whsec_" + Base64.getEncoder().encodeToString(key);
    }

    private static SigningSecrets parse(String yaml) {
        return SigningSecrets.parse(yaml.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void readsOneSecretOrAListOfTwoPerTenant() {
        SigningSecrets secrets =
                parse("acme:\n  - %s\n  - %s\nglobex: %s\n".formatted(secret(32), secret(24), secret(64)));

        assertThat(secrets.of("acme")).hasSize(2);
        assertThat(secrets.of("globex")).hasSize(1);
        assertThat(secrets.of("nobody")).isEmpty();
    }

    @Test
    void anEmptyFileGivesNoTenantASecret() {
        assertThat(parse("").byTenant()).isEmpty();
        assertThat(parse("# rotated out\n").byTenant()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "root a list      | '[a]'                                  | root: expected a mapping",
                "number as tenant | '1: SECRET'                            | expected a tenant id",
                "three secrets    | 'acme: [SECRET, SECRET, SECRET]'       | acme: expected one secret or a list of 1 to 2",
                "empty list       | 'acme: []'                             | acme: expected one secret or a list of 1 to 2",
                "a number         | 'acme: [SECRET, 5]'                    | acme[1]: expected a whsec_ string",
                "no prefix        | 'acme: [SECRET, c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0]' | acme[1]: does not start with whsec_",
                "not base64       | 'acme: [whsec_%%%%]'                     | acme[0]: not standard base64 after whsec_",
                "too short        | 'acme: [whsec_c2hvcnQ=]'               | acme[0]: 5 bytes after whsec_ (expected: 24 to 64)",
                "not yaml         | 'acme: [SECRET'                        | not valid YAML at line 1",
                "duplicate tenant | 'acme: SECRET\nacme: SECRET'           | not valid YAML"
            })
    void refusesBrokenFilesNamingTheEntryButNeverTheSecret(String name, String yaml, String message) {
        String secret = secret(32);
        String text = yaml.replace("\\n", "\n").replace("SECRET", secret);

        assertThatThrownBy(() -> parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(secret.substring(6)));
    }

    @Test
    void refusesTheSameSecretTwiceForOneTenant() {
        String secret = secret(32);

        assertThatThrownBy(() -> parse("acme: [%s, %s]".formatted(secret, secret)))
                .hasMessage("acme[1]: the same secret twice");
    }

    @Test
    void neverShowsASecretInToString() {
        String secret = secret(32);
        SigningSecrets secrets = parse("acme: [%s]\nglobex: %s".formatted(secret, secret(32)));

        assertThat(secrets.toString())
                .isEqualTo("SigningSecrets[tenants=2, secrets=2]")
                .doesNotContain(secret.substring(6));
        assertThat(secrets.of("acme").get(0).toString()).isEqualTo("SigningSecret[redacted]");
    }
}
