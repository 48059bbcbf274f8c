package dev.egress.app.support;

import dev.egress.app.routing.ClaimsSync;
import dev.egress.app.routing.EgressRouter;
import dev.egress.discovery.registry.AnnouncedIp;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.RoutingSnapshot;
import dev.egress.discovery.registry.RoutingTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Base of App integration tests: the real App on a random port, a tenants file in a temp directory,
 * and the real {@link RoutingTable} fed with snapshots directly (standing in for the registry watcher).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
public abstract class AppITSupport {

    /** The API token tests use. */
    public static final String API_TOKEN = "test-api-token";
    /** The internal token the App presents to Borders. */
    public static final String INTERNAL_TOKEN = "test-internal-token";
    /** Tenants: acme (127.0.0.2, .3), beta (.4), small-co and tiny-co (shared pool .8, .9). */
    public static final String TENANTS = """
            sharedPool: [127.0.0.8, 127.0.0.9]
            tenants:
              - id: acme
                dedicatedIps: [127.0.0.2, 127.0.0.3]
              - id: beta
                dedicatedIps: [127.0.0.4]
              - id: small-co
              - id: tiny-co
            """;

    private static final Path TENANTS_FILE;

    static {
        try {
            Path dir = Files.createTempDirectory("app-it");
            TENANTS_FILE = dir.resolve("tenants.yaml");
            Files.writeString(TENANTS_FILE, TENANTS);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("egress.tenants.file", TENANTS_FILE::toString);
        registry.add("egress.tenants.reload-interval", () -> "200ms");
        registry.add("egress.security.api-tokens", () -> API_TOKEN + ",second-token");
        registry.add("egress.security.internal-token", () -> INTERNAL_TOKEN);
        // The Border double speaks plain http; the trust chain has its own tests (TrustChainIT).
        registry.add("egress.security.insecure-local", () -> "true");
    }

    @Autowired
    protected RoutingTable table;

    @Autowired
    protected EgressRouter router;

    @Autowired
    protected ClaimsSync claims;

    @LocalServerPort
    protected int port;

    /**
     * A client for the App with the API token set.
     *
     * @return the client
     */
    protected WebTestClient client() {
        return WebTestClient.bindToServer()
                .baseUrl("http://127.0.0.1:" + port)
                .responseTimeout(Duration.ofSeconds(60))
                .defaultHeader("Authorization", "Bearer " + API_TOKEN)
                .build();
    }

    /**
     * Replaces the routing snapshot, as the registry watcher would.
     *
     * @param announcements the live Borders
     */
    protected void publish(Announcement... announcements) {
        offer(RoutingSnapshot.fromAnnouncements(List.of(announcements), Instant.now()));
    }

    /**
     * Replaces the routing snapshot as a fleet an operator placed: every IP a Border of it claims is that Border's,
     * whichever Border (of an earlier test, in this shared App) claimed it before. App remembers the claims of Borders
     * that are gone ({@code StandingClaims}; {@code EgressRouterTest} holds that rule), and these tests start a new
     * fleet on the same IPs each time. Two claims in one snapshot are still a conflict.
     *
     * @param snapshot the snapshot
     */
    protected void offer(RoutingSnapshot snapshot) {
        placedByAnOperator(claims, snapshot);
        table.offer(snapshot);
    }

    /**
     * Records an operator's move of every claimed IP of a snapshot to the Border claiming it, as the move API does
     * (in the claims table too when durable delivery is on).
     *
     * @param claims   the App's standing claims
     * @param snapshot the snapshot about to be offered
     */
    public static void placedByAnOperator(ClaimsSync claims, RoutingSnapshot snapshot) {
        for (Announcement announcement : snapshot.announcements().values()) {
            for (AnnouncedIp ip : announcement.ips()) {
                if (ip.claims()) {
                    claims.recordMove(ip.ip(), announcement.borderId()).join();
                }
            }
        }
    }

    /**
     * Posts a delivery.
     *
     * @param tenantId tenant
     * @param url      target URL
     * @return the exchange
     */
    protected WebTestClient.ResponseSpec deliver(String tenantId, String url) {
        return client().post()
                .uri("/v1/deliveries")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("tenantId", tenantId, "url", url, "payload", Map.of("event", "ping")))
                .exchange();
    }

    /**
     * The tenants file, for reload tests.
     *
     * @return its path
     */
    protected static Path tenantsFile() {
        return TENANTS_FILE;
    }
}
