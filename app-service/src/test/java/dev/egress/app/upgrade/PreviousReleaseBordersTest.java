package dev.egress.app.upgrade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.discovery.registry.AnnouncedIp;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.registry.RoutingSnapshot;
import dev.egress.discovery.trust.AnnouncementVerifier;
import dev.egress.discovery.trust.Pem;
import dev.egress.discovery.trust.TrustBundle;
import dev.egress.discovery.web.forward.ForwardFrame;
import dev.egress.discovery.web.forward.ForwardRequest;
import dev.egress.discovery.web.forward.ForwardResponse;
import dev.egress.discovery.web.forward.TunnelCall;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The App of this tree works with the previous release's Borders, whatever the rollout order (a
 * {@code helm upgrade} rolls App first, Borders after): it accepts their signed announcements, the Border
 * answers of both forward forms, and speaks a forward call and a tunnel call they understand. The previous
 * release's side is what its own code put on the wire ({@link RecordPreviousRelease}); this side is the tree's
 * code. A failure here means the change breaks upgrades: make it compatible for one release, or, if that is
 * impossible, say so in the CHANGELOG and the chart's NOTES.
 */
class PreviousReleaseBordersTest {

    private final JsonMapper json = PreviousRelease.json();

    @Test
    void theAppVerifiesAndRoutesOnThePreviousBordersSignedAnnouncement() {
        TrustBundle borderCa = new TrustBundle(Pem.certificates(PreviousRelease.read("border-ca.pem"), "border CA"));
        Instant at = PreviousRelease.recordedAt().plusSeconds(1);
        // App's reader as TrustConfiguration builds it (trust domain and clock skew at their defaults), at a
        // moment the recorded certificate and signed window are valid.
        AnnouncementVerifier verifier = new AnnouncementVerifier(
                () -> borderCa, "egress.local", Clock.fixed(at, ZoneOffset.UTC), Duration.ofSeconds(30));

        Announcement announcement = verifier.read(PreviousRelease.read("announcement.bin"));

        assertThat(announcement.borderId().value()).isEqualTo(PreviousRelease.BORDER_ID);
        assertThat(announcement.endpoint()).hasToString(PreviousRelease.ENDPOINT);
        assertThat(announcement.ips())
                .containsExactly(
                        new AnnouncedIp(
                                EgressIp.of(PreviousRelease.PUBLIC_IP),
                                EgressIp.of(PreviousRelease.BIND_IP),
                                IpStatus.ACTIVE),
                        new AnnouncedIp(EgressIp.of(PreviousRelease.PLAIN_IP), IpStatus.DRAINING));
        RoutingSnapshot snapshot = RoutingSnapshot.fromAnnouncements(List.of(announcement), at);
        assertThat(snapshot.ips()).contains(EgressIp.of(PreviousRelease.PUBLIC_IP));
    }

    @Test
    void theAppReadsThePreviousBordersAnswerInBothForms() {
        // As BorderAnswer.classify reads a 200: the raw frame by its media type, else JSON.
        ForwardResponse raw = ForwardFrame.readResponse(json, PreviousRelease.read("forward-response.frame"));
        ForwardResponse fromJson = json.readValue(PreviousRelease.read("forward-response.json"), ForwardResponse.class);

        assertThat(raw).isEqualTo(PreviousRelease.response());
        assertThat(fromJson).isEqualTo(PreviousRelease.response());
    }

    @Test
    void theAppsForwardCallCarriesEveryFieldThePreviousBorderReadsWithTheSameValue() {
        ForwardRequest request = PreviousRelease.request();
        byte[] recordedFrame = PreviousRelease.read("forward-request.frame");
        // The tree's App: ForwardCall sends the head, then the body's bytes; the JSON form on a 415.
        byte[] head = ForwardFrame.requestHead(json, request);
        byte[] recordedHead = Arrays.copyOfRange(
                recordedFrame, 0, 4 + ByteBuffer.wrap(recordedFrame).getInt());

        // The previous Border ignores fields it does not know; it needs every one it knows, unchanged.
        assertContainsEveryField(
                json.readTree(Arrays.copyOfRange(head, 4, head.length)),
                json.readTree(Arrays.copyOfRange(recordedHead, 4, recordedHead.length)));
        assertThat(Arrays.copyOfRange(recordedFrame, recordedHead.length, recordedFrame.length))
                .isEqualTo(request.body());
        assertContainsEveryField(
                json.readTree(json.writeValueAsBytes(request)),
                json.readTree(PreviousRelease.read("forward-request.json")));
    }

    @Test
    void theTreesBorderReadsThePreviousAppsForwardCallInBothForms() {
        ForwardRequest raw =
                ForwardFrame.readRequest(json, ByteBuffer.wrap(PreviousRelease.read("forward-request.frame")));
        ForwardRequest fromJson = json.readValue(PreviousRelease.read("forward-request.json"), ForwardRequest.class);

        for (ForwardRequest read : List.of(raw, fromJson)) {
            assertThat(read.deliveryId()).isEqualTo("dlv-0001");
            assertThat(read.sourceIp()).isEqualTo(PreviousRelease.PUBLIC_IP);
            assertThat(read.url()).isEqualTo(PreviousRelease.TARGET);
            assertThat(read.headers()).isEqualTo(PreviousRelease.request().headers());
            assertThat(new String(read.body(), StandardCharsets.UTF_8))
                    .isEqualTo("{\"event\":\"order.created\",\"id\":42}");
        }
    }

    @Test
    void theAppsTunnelCallIsTheOneThePreviousBorderServes() {
        Properties recorded = PreviousRelease.recording();

        assertThat(Map.of(
                        "tunnel.path", TunnelCall.PATH,
                        "tunnel.sourceIpHeader", TunnelCall.SOURCE_IP_HEADER,
                        "tunnel.targetHeader", TunnelCall.TARGET_HEADER,
                        "tunnel.target",
                                TunnelCall.parse(PreviousRelease.TUNNEL_TARGET).authority()))
                .allSatisfy((key, value) -> assertThat(value).as(key).isEqualTo(recorded.getProperty(key)));
    }

    private static void assertContainsEveryField(JsonNode sent, JsonNode recorded) {
        for (String field : recorded.propertyNames()) {
            assertThat(sent.get(field)).as("field %s", field).isEqualTo(recorded.get(field));
        }
    }
}
