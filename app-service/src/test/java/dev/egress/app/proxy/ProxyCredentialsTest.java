package dev.egress.app.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ProxyCredentialsTest {

    private static String basic(String userAndToken) {
        return "Basic " + Base64.getEncoder().encodeToString(userAndToken.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void readsTheTenantAndTheToken() {
        assertThat(ProxyCredentials.parse(basic("acme:secret"))).contains(new ProxyCredentials("acme", "secret"));
    }

    @Test
    void keepsAnEmptyUserForPickingTheTenantByDestination() {
        assertThat(ProxyCredentials.parse(basic(":secret"))).contains(new ProxyCredentials("", "secret"));
    }

    @Test
    void splitsAtTheFirstColonSoATokenMayHoldColons() {
        assertThat(ProxyCredentials.parse(basic("acme:a:b"))).contains(new ProxyCredentials("acme", "a:b"));
    }

    @Test
    void acceptsTheSchemeInAnyCase() {
        assertThat(ProxyCredentials.parse("bAsIc " + basic("acme:t").substring(6)))
                .isPresent();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "Basic",
                "Basic ",
                "Bearer abc",
                "Basicx YWNtZTp0",
                "Basic !!!notbase64",
                "Basic YWNtZQ==", // "acme": no colon
                "Basic YWNtZTo=", // "acme:": empty token
                "Basic /w==" // not UTF-8
            })
    void refusesAnythingButBasicWithAUserAndAToken(String header) {
        assertThat(ProxyCredentials.parse(header)).isEmpty();
    }

    @Test
    void refusesAMissingHeader() {
        assertThat(ProxyCredentials.parse(null)).isEmpty();
    }

    @Test
    void neverPrintsTheToken() {
        assertThat(new ProxyCredentials("acme", "secret-token").toString()).doesNotContain("secret-token");
    }
}
