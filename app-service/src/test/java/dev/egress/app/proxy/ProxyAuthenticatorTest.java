package dev.egress.app.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.egress.app.config.ApiTokenFilter;
import dev.egress.app.config.SecurityProperties;
import dev.egress.discovery.forward.TunnelCall;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;

class ProxyAuthenticatorTest {

    private static final TunnelCall HOOKS = new TunnelCall("hooks.example.com", 443);
    private static final TunnelCall ELSEWHERE = new TunnelCall("other.example.com", 443);

    private final ApiTokenFilter tokens = new ApiTokenFilter(new SecurityProperties(
            List.of("global-token"),
            "",
            Map.of("acme", List.of("acme-token")),
            Map.of(),
            "internal",
            "",
            "",
            "",
            false));
    private final ProxyAuthenticator authenticator = new ProxyAuthenticator(
            tokens, (host, port) -> host.equals("hooks.example.com") ? Optional.of("globex") : Optional.empty());

    private static String basic(String userAndToken) {
        return "Basic " + Base64.getEncoder().encodeToString(userAndToken.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theUserNamesTheTenantForATokenOfEveryTenant() throws Exception {
        assertThat(authenticator
                        .authenticate(basic("small-co:global-token"), HOOKS)
                        .tenantId())
                .isEqualTo("small-co");
    }

    @Test
    void anEmptyUserTakesTheClaimantAndAnUnclaimedDestinationTheSharedPool() throws Exception {
        assertThat(authenticator.authenticate(basic(":global-token"), HOOKS).tenantId())
                .isEqualTo("globex");
        assertThat(authenticator.authenticate(basic(":global-token"), ELSEWHERE).tenantId())
                .isNull();
    }

    @Test
    void aTenantBoundTokenSendsOnlyForItsTenantWithAnEmptyUserToo() throws Exception {
        assertThat(authenticator.authenticate(basic("acme:acme-token"), HOOKS).tenantId())
                .isEqualTo("acme");
        assertThat(authenticator.authenticate(basic(":acme-token"), HOOKS).tenantId())
                .isEqualTo("acme");
        assertThatThrownBy(() -> authenticator.authenticate(basic("globex:acme-token"), HOOKS))
                .isInstanceOfSatisfying(ProxyAuthenticator.Refused.class, e -> {
                    assertThat(e.problem().status()).isEqualTo(HttpStatus.FORBIDDEN);
                    assertThat(e.problem().slug()).isEqualTo("tenant-forbidden");
                });
    }

    @Test
    void missingMalformedOrUnknownCredentialsAre407() {
        for (String header : new String[] {null, "Bearer global-token", basic("acme"), basic("acme:wrong")}) {
            assertThatThrownBy(() -> authenticator.authenticate(header, HOOKS))
                    .isInstanceOfSatisfying(ProxyAuthenticator.Refused.class, e -> {
                        assertThat(e.problem().status()).isEqualTo(HttpStatus.PROXY_AUTHENTICATION_REQUIRED);
                        assertThat(e.problem().detail()).doesNotContain("wrong").doesNotContain("global-token");
                    });
        }
    }

    @Test
    void theInternalTokenIsNoApiToken() {
        assertThatThrownBy(() -> authenticator.authenticate(basic("acme:internal"), HOOKS))
                .isInstanceOf(ProxyAuthenticator.Refused.class);
    }
}
