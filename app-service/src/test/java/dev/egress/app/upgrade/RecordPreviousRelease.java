package dev.egress.app.upgrade;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.egress.discovery.registry.AnnouncedIp;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.trust.AnnouncementSigner;
import dev.egress.discovery.trust.Identity;
import dev.egress.discovery.trust.Pem;
import dev.egress.discovery.trust.testing.TestPki;
import dev.egress.discovery.web.forward.ForwardFrame;
import dev.egress.discovery.web.forward.TunnelCall;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * Records the wire fixtures of {@link PreviousRelease} with the code of the tree it runs in. Run it at each
 * release, on the release's commit, and commit the files: the next release's tests then hold its App to
 * them (docs/kubernetes.md, "Upgrades and version skew"):
 *
 * <pre>./mvnw -B -ntp -pl app-service -am test -Dtest=RecordPreviousRelease -Dupgrade.record=true \
 *     -Dsurefire.failIfNoSpecifiedTests=false</pre>
 *
 * <p>Skipped otherwise. The announcement is signed by a throwaway CA made as {@link TestPki} makes it; only its
 * CA certificate is kept (the key dies with the temporary directory).
 */
class RecordPreviousRelease {

    @Test
    void recordsWhatThisReleasesBorderAndAppSend() throws IOException {
        assumeTrue(
                Boolean.getBoolean("upgrade.record"),
                "records the upgrade fixtures only with -Dupgrade.record=true (at a release)");
        JsonMapper json = PreviousRelease.json();

        TestPki pki = TestPki.create("previous-release-border-ca");
        TestPki.Issued issued = pki.border(
                PreviousRelease.BORDER_ID,
                PreviousRelease.PUBLIC_IP,
                PreviousRelease.BIND_IP,
                PreviousRelease.PLAIN_IP);
        Identity identity = new Identity(
                Pem.certificates(Files.readAllBytes(issued.certificate()), "certificate"),
                Pem.privateKey(Files.readAllBytes(issued.privateKey()), "key"));
        AnnouncementSigner signer = new AnnouncementSigner(() -> identity);
        // After issuing: the certificate's validity starts when keytool made it.
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        // As the Border's registrar builds it: every hosted IP (one behind a NAT), the signer's window.
        Announcement announcement = Announcement.initial(
                        BorderId.of(PreviousRelease.BORDER_ID),
                        URI.create(PreviousRelease.ENDPOINT),
                        List.of(
                                new AnnouncedIp(
                                        EgressIp.of(PreviousRelease.PUBLIC_IP),
                                        EgressIp.of(PreviousRelease.BIND_IP),
                                        IpStatus.ACTIVE),
                                new AnnouncedIp(EgressIp.of(PreviousRelease.PLAIN_IP), IpStatus.DRAINING)),
                        now)
                .withValidity(signer.validity().orElseThrow())
                .republished(0, now);
        PreviousRelease.write("announcement.bin", signer.write(announcement));
        PreviousRelease.write("border-ca.pem", Files.readAllBytes(pki.caPem()));

        PreviousRelease.write(
                "forward-request.frame",
                concat(
                        ForwardFrame.requestHead(json, PreviousRelease.request()),
                        PreviousRelease.request().body()));
        PreviousRelease.write("forward-request.json", json.writeValueAsBytes(PreviousRelease.request()));
        PreviousRelease.write(
                "forward-response.frame",
                concat(
                        ForwardFrame.responseHead(json, PreviousRelease.response()),
                        PreviousRelease.response().body().getBytes(StandardCharsets.UTF_8)));
        PreviousRelease.write("forward-response.json", json.writeValueAsBytes(PreviousRelease.response()));

        Properties recording = new Properties();
        recording.setProperty("release", System.getProperty("upgrade.release", "0.3.0-SNAPSHOT (main)"));
        recording.setProperty("recordedAt", now.toString());
        recording.setProperty("tunnel.path", TunnelCall.PATH);
        recording.setProperty("tunnel.sourceIpHeader", TunnelCall.SOURCE_IP_HEADER);
        recording.setProperty("tunnel.targetHeader", TunnelCall.TARGET_HEADER);
        recording.setProperty(
                "tunnel.target", TunnelCall.parse(PreviousRelease.TUNNEL_TARGET).authority());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        recording.store(
                out, "Recorded by RecordPreviousRelease; see docs/kubernetes.md, \"Upgrades and version skew\"");
        PreviousRelease.write("recording.properties", out.toByteArray());
    }

    private static byte[] concat(byte[] head, byte[] body) {
        byte[] out = new byte[head.length + body.length];
        System.arraycopy(head, 0, out, 0, head.length);
        System.arraycopy(body, 0, out, head.length, body.length);
        return out;
    }
}
