package dev.egress.app.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.egress.app.config.ApiTokenFilter;
import dev.egress.app.config.SecurityProperties;
import dev.egress.discovery.web.forward.TunnelCall;
import java.net.InetAddress;
import java.net.UnknownHostException;
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
    private static final InetAddress LOCAL = address("127.0.0.1");

    private static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }

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
    private final DestinationClaims claims =
            (host, port) -> host.equals("hooks.example.com") ? Optional.of("globex") : Optional.empty();
    private final ProxyAuthenticator authenticator = new ProxyAuthenticator(tokens, claims, List.of());
    private final ProxyAuthenticator withDoor = new ProxyAuthenticator(
            tokens, claims, List.of(SourceRange.parse("10.1.0.0/16"), SourceRange.parse("fd00::/8")));

    private static String basic(String userAndToken) {
        return "Basic " + Base64.getEncoder().encodeToString(userAndToken.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theUserNamesTheTenantForATokenOfEveryTenant() throws Exception {
        assertThat(authenticator
                        .authenticate(basic("small-co:global-token"), HOOKS, LOCAL)
                        .tenantId())
                .isEqualTo("small-co");
    }

    @Test
    void anEmptyUserTakesTheClaimantAndAnUnclaimedDestinationTheSharedPool() throws Exception {
        assertThat(authenticator
                        .authenticate(basic(":global-token"), HOOKS, LOCAL)
                        .tenantId())
                .isEqualTo("globex");
        assertThat(authenticator
                        .authenticate(basic(":global-token"), ELSEWHERE, LOCAL)
                        .tenantId())
                .isNull();
    }

    @Test
    void aTenantBoundTokenSendsOnlyForItsTenantWithAnEmptyUserToo() throws Exception {
        assertThat(authenticator
                        .authenticate(basic("acme:acme-token"), HOOKS, LOCAL)
                        .tenantId())
                .isEqualTo("acme");
        assertThat(authenticator
                        .authenticate(basic(":acme-token"), HOOKS, LOCAL)
                        .tenantId())
                .isEqualTo("acme");
        assertThatThrownBy(() -> authenticator.authenticate(basic("globex:acme-token"), HOOKS, LOCAL))
                .isInstanceOfSatisfying(ProxyAuthenticator.Refused.class, e -> {
                    assertThat(e.problem().status()).isEqualTo(HttpStatus.FORBIDDEN);
                    assertThat(e.problem().slug()).isEqualTo("tenant-forbidden");
                });
    }

    @Test
    void missingMalformedOrUnknownCredentialsAre407() {
        for (String header : new String[] {null, "Bearer global-token", basic("acme"), basic("acme:wrong")}) {
            assertThatThrownBy(() -> authenticator.authenticate(header, HOOKS, LOCAL))
                    .isInstanceOfSatisfying(ProxyAuthenticator.Refused.class, e -> {
                        assertThat(e.problem().status()).isEqualTo(HttpStatus.PROXY_AUTHENTICATION_REQUIRED);
                        assertThat(e.problem().detail()).doesNotContain("wrong").doesNotContain("global-token");
                    });
        }
    }

    @Test
    void theInternalTokenIsNoApiToken() {
        assertThatThrownBy(() -> authenticator.authenticate(basic("acme:internal"), HOOKS, LOCAL))
                .isInstanceOf(ProxyAuthenticator.Refused.class);
    }

    @Test
    void aSenderInsideAnUnauthenticatedRangeWithoutCredentialsIsAnEmptyUserOfNoTenant() throws Exception {
        assertThat(withDoor.authenticate(null, HOOKS, address("10.1.2.3")).tenantId())
                .isEqualTo("globex");
        assertThat(withDoor.authenticate(null, ELSEWHERE, address("10.1.255.255"))
                        .tenantId())
                .as("unclaimed: the shared pool")
                .isNull();
        assertThat(withDoor.authenticate(null, HOOKS, address("fd12::1")).tenantId())
                .isEqualTo("globex");
    }

    @Test
    void credentialsSentFromInsideAnUnauthenticatedRangeAreCheckedAsAlways() throws Exception {
        InetAddress inside = address("10.1.2.3");
        assertThat(withDoor.authenticate(basic("acme:acme-token"), HOOKS, inside)
                        .tenantId())
                .isEqualTo("acme");
        for (String header : new String[] {basic("acme:wrong"), "Bearer global-token", basic("acme")}) {
            assertThatThrownBy(() -> withDoor.authenticate(header, HOOKS, inside))
                    .isInstanceOfSatisfying(
                            ProxyAuthenticator.Refused.class,
                            e -> assertThat(e.problem().status()).isEqualTo(HttpStatus.PROXY_AUTHENTICATION_REQUIRED));
        }
        assertThatThrownBy(() -> withDoor.authenticate(basic("globex:acme-token"), HOOKS, inside))
                .isInstanceOfSatisfying(
                        ProxyAuthenticator.Refused.class,
                        e -> assertThat(e.problem().slug()).isEqualTo("tenant-forbidden"));
    }

    @Test
    void aSenderOutsideEveryUnauthenticatedRangeWithoutCredentialsIs407() {
        for (String outside : new String[] {"10.2.0.1", "10.0.255.255", "127.0.0.1", "fe80::1", "fc00::1"}) {
            InetAddress peer = address(outside);
            assertThatThrownBy(() -> withDoor.authenticate(null, HOOKS, peer))
                    .as(outside)
                    .isInstanceOfSatisfying(
                            ProxyAuthenticator.Refused.class,
                            e -> assertThat(e.problem().status()).isEqualTo(HttpStatus.PROXY_AUTHENTICATION_REQUIRED));
        }
    }
}
