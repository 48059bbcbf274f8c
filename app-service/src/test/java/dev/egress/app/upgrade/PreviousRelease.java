package dev.egress.app.upgrade;

import dev.egress.discovery.web.forward.ForwardRequest;
import dev.egress.discovery.web.forward.ForwardResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the previous release's Border and App put on the wire, recorded by that release's own code
 * ({@link RecordPreviousRelease}) into {@code src/test/resources/upgrade/previous/}: a signed announcement
 * with the CA that issued its certificate, the forward call in its raw-frame and JSON forms with the
 * Border's answers in both, and the tunnel call. {@link PreviousReleaseBordersTest} reads them with the
 * tree's code. The values below are the inputs of the recording, so both sides name the same call.
 */
final class PreviousRelease {

    /** Where the fixtures live in the source tree (the recorder writes there). */
    static final Path SOURCE_DIR = Path.of("src", "test", "resources", "upgrade", "previous");

    static final String BORDER_ID = "border-prev";
    static final String ENDPOINT = "https://10.0.1.5:8181";
    static final String PUBLIC_IP = "198.51.100.10";
    static final String BIND_IP = "10.0.1.10";
    static final String PLAIN_IP = "203.0.113.11";
    static final String TARGET = "https://hooks.example.com:8443/acme?x=1";
    static final String TUNNEL_TARGET = "hooks.example.com:443";

    /** The forward request App sent (raw frame and JSON form alike). */
    static ForwardRequest request() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "application/json");
        headers.put("X-Webhook-Id", "evt-42");
        return new ForwardRequest(
                "dlv-0001", PUBLIC_IP, TARGET, "POST", headers, "{\"event\":\"order.created\",\"id\":42}");
    }

    /** The Border's answer to it (raw frame and JSON form alike). */
    static ForwardResponse response() {
        return new ForwardResponse(
                "dlv-0001", BIND_IP, BORDER_ID, 202, Map.of("Content-Type", "text/plain"), "accepted", false, 37);
    }

    /** The mapper both sides' wire forms are written and read with (Spring Boot's default JSON mapper). */
    static JsonMapper json() {
        return JsonMapper.builder().build();
    }

    static byte[] read(String name) {
        try (InputStream in = PreviousRelease.class.getResourceAsStream("/upgrade/previous/" + name)) {
            if (in == null) {
                throw new IllegalStateException("no fixture upgrade/previous/" + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Properties recording() {
        Properties properties = new Properties();
        try (InputStream in = PreviousRelease.class.getResourceAsStream("/upgrade/previous/recording.properties")) {
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties;
    }

    /** When the announcement was signed: its certificate and signed window are checked at this moment. */
    static Instant recordedAt() {
        return Instant.parse(recording().getProperty("recordedAt"));
    }

    static void write(String name, byte[] bytes) {
        try {
            Files.createDirectories(SOURCE_DIR);
            Files.write(SOURCE_DIR.resolve(name), bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private PreviousRelease() {}
}
