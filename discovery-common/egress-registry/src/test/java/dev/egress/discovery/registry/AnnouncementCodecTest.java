package dev.egress.discovery.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.egress.discovery.registry.testing.Announcements;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

class AnnouncementCodecTest {

    // The announcement example of docs/architecture.md ("The registry protocol"), kept identical to it.
    private static final String DESIGN_EXAMPLE = """
            {"version":1,"borderId":"border-a","endpoint":"http://10.0.3.17:8181",
             "ips":[{"ip":"203.0.113.10","status":"ACTIVE"},{"ip":"203.0.113.11","status":"DRAINING"}],
             "publishedAt":"2026-11-30T10:15:30.123Z","generation":7}
            """;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final AnnouncementCodec codec = new AnnouncementCodec();

    @Test
    void decodesTheDesignExample() {
        Announcement a = codec.decode(utf8(DESIGN_EXAMPLE));

        assertThat(a.borderId()).isEqualTo(BorderId.of("border-a"));
        assertThat(a.endpoint()).isEqualTo(URI.create("http://10.0.3.17:8181"));
        assertThat(a.ips())
                .containsExactly(
                        new AnnouncedIp(EgressIp.of("203.0.113.10"), IpStatus.ACTIVE),
                        new AnnouncedIp(EgressIp.of("203.0.113.11"), IpStatus.DRAINING));
        assertThat(a.publishedAt()).isEqualTo(Instant.parse("2026-11-30T10:15:30.123Z"));
        assertThat(a.generation()).isEqualTo(7);
    }

    @Test
    void roundTripsEveryField() {
        Announcement a = new Announcement(
                1,
                BorderId.of("b-0"),
                URI.create("https://[2001:db8::7]:8443/egress"),
                List.of(
                        new AnnouncedIp(EgressIp.of("2001:db8::10"), IpStatus.ACTIVE),
                        new AnnouncedIp(EgressIp.of("127.0.0.2"), IpStatus.DRAINING),
                        new AnnouncedIp(EgressIp.of("::ffff:192.0.2.1"), IpStatus.DISABLED)),
                Instant.parse("2026-11-30T10:15:30.123456789Z"),
                Long.MAX_VALUE);

        assertThat(codec.decode(codec.encode(a))).isEqualTo(a);
    }

    @Test
    void roundTripsTheLargestAnnouncement() {
        Announcement a = Announcements.of(
                "border-a",
                "http://127.0.0.1:8181",
                IntStream.range(0, Announcement.MAX_IPS)
                        .mapToObj(i -> "efff:ffff:ffff:ffff:ffff:ffff:ffff:" + Integer.toHexString(i + 1))
                        .toArray(String[]::new));

        byte[] payload = codec.encode(a);

        assertThat(payload.length).isLessThanOrEqualTo(AnnouncementCodec.MAX_BYTES);
        assertThat(codec.decode(payload)).isEqualTo(a);
    }

    @Test
    void ignoresUnknownFields() {
        Announcement a = codec.decode(mutated(root -> {
            root.put("region", "eu-1");
            root.putObject("future").put("x", 1);
            ((ObjectNode) root.get("ips").get(0)).put("weight", 3);
        }));

        assertThat(a).isEqualTo(codec.decode(utf8(DESIGN_EXAMPLE)));
    }

    @Test
    void acceptsTheLongestBorderId() {
        String id = "a" + "-".repeat(61) + "z";

        assertThat(codec.decode(mutated(root -> root.put("borderId", id)))
                        .borderId()
                        .value())
                .isEqualTo(id);
    }

    @Test
    void rejectsEmptyAndNullPayloads() {
        assertRejected(null, "payload", "empty");
        assertRejected(new byte[0], "payload", "empty");
    }

    @Test
    void rejectsPayloadsOverSixtyFourKibibytesBeforeParsing() {
        byte[] big = new byte[AnnouncementCodec.MAX_BYTES + 1];
        Arrays.fill(big, (byte) ' ');

        assertRejected(big, "payload", "65537 bytes (expected: <= 65536)");
    }

    @Test
    void acceptsAPayloadOfExactlySixtyFourKibibytes() {
        byte[] example = utf8(DESIGN_EXAMPLE.strip());
        byte[] padded = new byte[AnnouncementCodec.MAX_BYTES];
        Arrays.fill(padded, (byte) ' ');
        System.arraycopy(example, 0, padded, 0, example.length);

        assertThat(codec.decode(padded).borderId().value()).isEqualTo("border-a");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "not json",
                "{\"version\":1",
                "[1,2]",
                "\"text\"",
                "42",
                "null",
                "{\"version\":1,\"version\":1}",
                "{} {}"
            })
    void rejectsWhatIsNotOneJsonObject(String text) {
        assertRejected(utf8(text), "payload", "");
    }

    @Test
    void rejectsDuplicateKeysInsteadOfPickingOne() {
        String twoIds = DESIGN_EXAMPLE.replace(
                "\"borderId\":\"border-a\"", "\"borderId\":\"border-a\",\"borderId\":\"border-b\"");

        assertRejected(utf8(twoIds), "payload", "Duplicate");
    }

    @Test
    void rejectsBytesThatAreNotUtf8() {
        byte[] bad = DESIGN_EXAMPLE.replace("border-a", "border-X").getBytes(StandardCharsets.UTF_8);
        bad[DESIGN_EXAMPLE.indexOf("border-X") + 7] = (byte) 0xC3; // a lone lead byte

        assertRejected(bad, "payload", "UTF-8");
    }

    @Test
    void rejectsMalformedUtf8EvenInFieldsItIgnores() {
        // A lone lead byte, an overlong '/', and a UTF-16 surrogate encoded as if it were a character.
        for (byte[] bad : List.of(new byte[] {(byte) 0xC3}, new byte[] {(byte) 0xC0, (byte) 0xAF}, new byte[] {
            (byte) 0xED, (byte) 0xA0, (byte) 0x80
        })) {
            ByteArrayOutputStream payload = new ByteArrayOutputStream();
            payload.writeBytes(utf8("{\"note\":\""));
            payload.writeBytes(bad);
            payload.writeBytes(utf8("\"," + DESIGN_EXAMPLE.strip().substring(1)));

            assertRejected(payload.toByteArray(), "payload", "not valid UTF-8 (expected: UTF-8 JSON)");
        }
    }

    @Test
    void encodesAnAnnouncementOfExactlySixtyFourKibibytesAndRefusesALargerOne() {
        byte[] small = codec.encode(withEndpointPath(""));
        String fill = "p".repeat(AnnouncementCodec.MAX_BYTES - small.length);

        byte[] largest = codec.encode(withEndpointPath(fill));
        assertThat(largest).hasSize(AnnouncementCodec.MAX_BYTES);
        assertThat(codec.decode(largest).endpoint().getPath()).isEqualTo("/" + fill);
        assertThatThrownBy(() -> codec.encode(withEndpointPath(fill + "p")))
                .isInstanceOfSatisfying(
                        InvalidAnnouncementException.class,
                        e -> assertThat(e.getMessage()).isEqualTo("payload: 65537 bytes (expected: <= 65536)"));
    }

    @Test
    void quotesTheOffendingValueWholeUpToEightyCharactersAndCutsLongerOnes() {
        String eighty = "B".repeat(80);

        assertRejected(mutated(root -> root.put("borderId", eighty)), "borderId", "'" + eighty + "' (expected:");
        assertRejected(
                mutated(root -> root.put("borderId", eighty + "C")), "borderId", "'" + eighty + "...' (expected:");
    }

    private static Announcement withEndpointPath(String path) {
        return Announcements.of("border-a", "http://10.0.3.17:8181/" + path, "203.0.113.10");
    }

    @Test
    void rejectsUtf16EvenThoughJacksonCouldDetectIt() {
        assertRejected(DESIGN_EXAMPLE.getBytes(StandardCharsets.UTF_16BE), "payload", "NUL");
    }

    @Test
    void acceptsNonAsciiUtf8InFieldsItIgnores() {
        Announcement a = codec.decode(mutated(root -> root.put("note", "Grüße, 東京")));

        assertThat(a.borderId().value()).isEqualTo("border-a");
    }

    @Test
    void rejectsOtherVersions() {
        assertRejected(mutated(root -> root.remove("version")), "version", "missing");
        assertRejected(mutated(root -> root.put("version", 2)), "version", "2 (expected: 1)");
        assertRejected(mutated(root -> root.put("version", 0)), "version", "0 (expected: 1)");
        assertRejected(mutated(root -> root.put("version", "1")), "version", "'\"1\"' (expected: an integer)");
        assertRejected(mutated(root -> root.put("version", 1.0)), "version", "(expected: an integer)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Border-A", "-border", "border_a", "border.a", "bórder", " border-a"})
    void rejectsMalformedBorderIds(String id) {
        assertRejected(mutated(root -> root.put("borderId", id)), "borderId", "expected: [a-z0-9][a-z0-9-]{0,62}");
    }

    @Test
    void rejectsBorderIdsLongerThanSixtyThreeCharacters() {
        assertRejected(mutated(root -> root.put("borderId", "a".repeat(64))), "borderId", "expected: [a-z0-9]");
    }

    @Test
    void rejectsMissingOrNonStringBorderIds() {
        assertRejected(mutated(root -> root.remove("borderId")), "borderId", "missing");
        assertRejected(mutated(root -> root.putNull("borderId")), "borderId", "missing");
        assertRejected(mutated(root -> root.put("borderId", 7)), "borderId", "expected: a string");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "not a url",
                "10.0.3.17:8181",
                "/relative",
                "ftp://10.0.3.17",
                "http://",
                "http://u:p@10.0.3.17:8181",
                "file:///etc/passwd"
            })
    void rejectsEndpointsThatAreNotAbsoluteHttpUrls(String endpoint) {
        assertRejected(
                mutated(root -> root.put("endpoint", endpoint)), "endpoint", "expected: an absolute http(s) URL");
    }

    @Test
    void rejectsMissingEndpoints() {
        assertRejected(mutated(root -> root.remove("endpoint")), "endpoint", "missing");
    }

    @Test
    void rejectsIpListsOfTheWrongShapeOrSize() {
        assertRejected(mutated(root -> root.remove("ips")), "ips", "missing");
        assertRejected(mutated(root -> root.put("ips", "203.0.113.10")), "ips", "not an array");
        assertRejected(mutated(root -> root.putArray("ips")), "ips", "0 entries (expected: 1..256)");
        assertRejected(
                mutated(root -> {
                    ArrayNode ips = root.putArray("ips");
                    for (int i = 0; i < 257; i++) {
                        ips.addObject()
                                .put("ip", "10.0." + (i / 256) + "." + (i % 256))
                                .put("status", "ACTIVE");
                    }
                }),
                "ips",
                "257 entries (expected: 1..256)");
        assertRejected(mutated(root -> ((ArrayNode) root.get("ips")).add("203.0.113.12")), "ips[2]", "not an object");
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.1", "0x7f.0.0.1", "010.0.0.1", "localhost", "203.0.113.256", "fe80::1%eth0", ""})
    void rejectsIpsThatAreNotStrictLiterals(String ip) {
        assertRejected(
                mutated(root -> ((ObjectNode) root.get("ips").get(1)).put("ip", ip)),
                "ips[1].ip",
                "expected: an IPv4 or IPv6 literal");
    }

    @Test
    void rejectsMissingIpFields() {
        assertRejected(mutated(root -> ((ObjectNode) root.get("ips").get(0)).remove("ip")), "ips[0].ip", "missing");
        assertRejected(
                mutated(root -> ((ObjectNode) root.get("ips").get(0)).remove("status")), "ips[0].status", "missing");
    }

    @Test
    void rejectsDuplicateIpsAfterCanonicalisation() {
        String twice = """
                {"version":1,"borderId":"border-a","endpoint":"http://10.0.3.17:8181",
                 "ips":[{"ip":"2001:db8::1","status":"ACTIVE"},{"ip":"2001:DB8:0:0::1","status":"DRAINING"}],
                 "publishedAt":"2026-11-30T10:15:30.123Z","generation":7}
                """;

        assertRejected(utf8(twice), "ips", "duplicate ip 2001:db8::1");
    }

    @Test
    void readsAnIpv4MappedIpAsItsIpv4AddressSoBothSpellingsAreOneDuplicate() {
        String mapped = """
                {"version":1,"borderId":"border-a","endpoint":"http://10.0.3.17:8181",
                 "ips":[{"ip":"::ffff:127.0.0.3","bind":"::FFFF:7f00:5","status":"ACTIVE"}],
                 "publishedAt":"2026-11-30T10:15:30.123Z","generation":7}
                """;
        assertThat(codec.decode(utf8(mapped)).ips())
                .containsExactly(new AnnouncedIp(EgressIp.of("127.0.0.3"), EgressIp.of("127.0.0.5"), IpStatus.ACTIVE));

        String twice = """
                {"version":1,"borderId":"border-a","endpoint":"http://10.0.3.17:8181",
                 "ips":[{"ip":"127.0.0.3","status":"ACTIVE"},{"ip":"::ffff:127.0.0.3","status":"DRAINING"}],
                 "publishedAt":"2026-11-30T10:15:30.123Z","generation":7}
                """;
        assertRejected(utf8(twice), "ips", "duplicate ip 127.0.0.3");
    }

    @ParameterizedTest
    @CsvSource({
        "'{\"ip\":\"0.0.0.0\",\"status\":\"ACTIVE\"}', ips[0].ip, 0.0.0.0 is unspecified",
        "'{\"ip\":\"::\",\"status\":\"ACTIVE\"}', ips[0].ip, :: is unspecified",
        "'{\"ip\":\"224.0.0.1\",\"status\":\"ACTIVE\"}', ips[0].ip, 224.0.0.1 is multicast",
        "'{\"ip\":\"203.0.113.10\",\"bind\":\"::ffff:0.0.0.0\",\"status\":\"ACTIVE\"}', ips[0].bind, 0.0.0.0 is unspecified",
        "'{\"ip\":\"203.0.113.10\",\"bind\":\"ff02::1\",\"status\":\"ACTIVE\"}', ips[0].bind, ff02::1 is multicast",
    })
    void rejectsUnspecifiedAndMulticastIpsAndBindAddresses(String entry, String field, String reason) {
        String payload = """
                {"version":1,"borderId":"border-a","endpoint":"http://10.0.3.17:8181","ips":[%s],
                 "publishedAt":"2026-11-30T10:15:30.123Z","generation":7}
                """.formatted(entry);
        assertRejected(utf8(payload), field, reason + " (expected: a unicast address)");
    }

    @Test
    void acceptsLoopbackIpsForTheLocalPlatform() {
        String payload = """
                {"version":1,"borderId":"border-a","endpoint":"http://10.0.3.17:8181",
                 "ips":[{"ip":"127.0.0.2","status":"ACTIVE"},{"ip":"::1","status":"ACTIVE"}],
                 "publishedAt":"2026-11-30T10:15:30.123Z","generation":7}
                """;
        assertThat(codec.decode(utf8(payload)).ips()).hasSize(2);
    }

    @Test
    void roundTripsAPublicAddressWithItsBindAddress() {
        Announcement a = Announcement.initial(
                BorderId.of("border-a"),
                URI.create("http://10.0.3.17:8181"),
                List.of(
                        new AnnouncedIp(EgressIp.of("203.0.113.10"), EgressIp.of("10.0.1.5"), IpStatus.ACTIVE),
                        new AnnouncedIp(EgressIp.of("203.0.113.11"), IpStatus.DRAINING)),
                Instant.parse("2026-11-30T10:15:30.123Z"));

        byte[] payload = codec.encode(a);

        assertThat(codec.decode(payload)).isEqualTo(a);
        ArrayNode ips = (ArrayNode) JSON.readTree(payload).get("ips");
        assertThat(ips.get(0).get("ip").asString()).isEqualTo("203.0.113.10");
        assertThat(ips.get(0).get("bind").asString()).isEqualTo("10.0.1.5");
        assertThat(ips.get(1).has("bind"))
                .as("bind is omitted when it equals ip")
                .isFalse();
    }

    @Test
    void roundTripsTheReasonOfAnIpTheBorderWithholdsAndOmitsItOtherwise() {
        Announcement a = Announcement.initial(
                BorderId.of("border-a"),
                URI.create("http://10.0.3.17:8181"),
                List.of(
                        new AnnouncedIp(EgressIp.of("203.0.113.10"), IpStatus.ACTIVE)
                                .withheld("egress-identity-mismatch"),
                        new AnnouncedIp(EgressIp.of("203.0.113.11"), IpStatus.DISABLED)),
                Instant.parse("2026-11-30T10:15:30.123Z"));

        byte[] payload = codec.encode(a);

        Announcement decoded = codec.decode(payload);
        assertThat(decoded).isEqualTo(a);
        assertThat(decoded.ips().get(0).status()).isEqualTo(IpStatus.DISABLED);
        assertThat(decoded.ips().get(0).reason()).isEqualTo("egress-identity-mismatch");
        ArrayNode ips = (ArrayNode) JSON.readTree(payload).get("ips");
        assertThat(ips.get(0).get("reason").asString()).isEqualTo("egress-identity-mismatch");
        assertThat(ips.get(1).has("reason"))
                .as("no reason for an operator's status")
                .isFalse();
    }

    @Test
    void rejectsReasonsThatAreNotSlugsOrComeWithActive() {
        assertRejected(
                mutated(root -> ((ObjectNode) root.get("ips").get(1)).put("reason", "Not A Slug")),
                "ips[1].reason",
                "expected: [a-z0-9][a-z0-9-]{0,63}");
        assertRejected(
                mutated(root -> ((ObjectNode) root.get("ips").get(1)).put("reason", "x".repeat(65))),
                "ips[1].reason",
                "expected: [a-z0-9][a-z0-9-]{0,63}");
        assertRejected(
                mutated(root -> ((ObjectNode) root.get("ips").get(0)).put("reason", "egress-identity-mismatch")),
                "ips[0].reason",
                "with status ACTIVE");
        assertRejected(
                mutated(root -> ((ObjectNode) root.get("ips").get(1)).put("reason", 7)),
                "ips[1].reason",
                "expected: a string");
        assertThat(codec.decode(mutated(root -> ((ObjectNode) root.get("ips").get(1)).putNull("reason")))
                        .ips()
                        .get(1)
                        .reason())
                .isNull();
        assertThat(codec.decode(mutated(root -> ((ObjectNode) root.get("ips").get(1)).put("reason", "x".repeat(64))))
                        .ips()
                        .get(1)
                        .reason())
                .hasSize(64);
    }

    @Test
    void readsAnEntryWithoutBindAsBoundToItsOwnAddress() {
        Announcement a = codec.decode(utf8(DESIGN_EXAMPLE));

        assertThat(a.ips()).allSatisfy(ip -> assertThat(ip.bind()).isEqualTo(ip.ip()));
    }

    @Test
    void rejectsBindAddressesThatAreNotLiteralsOrUsedTwice() {
        assertRejected(
                mutated(root -> ((ObjectNode) root.get("ips").get(0)).put("bind", "10.0.1.05")),
                "ips[0].bind",
                "expected: an IPv4 or IPv6 literal");
        assertRejected(
                mutated(root -> ((ObjectNode) root.get("ips").get(0)).put("bind", 5)),
                "ips[0].bind",
                "expected: a string");
        assertRejected(
                mutated(root -> {
                    ((ObjectNode) root.get("ips").get(0)).put("bind", "10.0.1.5");
                    ((ObjectNode) root.get("ips").get(1)).put("bind", "10.0.1.5");
                }),
                "ips",
                "bind address 10.0.1.5 used twice");
    }

    @ParameterizedTest
    @ValueSource(strings = {"active", "UP", "", "DRAINING "})
    void rejectsUnknownStatuses(String status) {
        assertRejected(
                mutated(root -> ((ObjectNode) root.get("ips").get(0)).put("status", status)),
                "ips[0].status",
                "expected: ACTIVE, DRAINING or DISABLED");
    }

    @Test
    void namesEveryStatusWhenRejectingAnUnknownOne() {
        assertRejected(
                mutated(root -> ((ObjectNode) root.get("ips").get(0)).put("status", "UP")),
                "ips[0].status",
                "expected: " + IpStatus.choices());
    }

    @Test
    void rejectsBadPublishTimes() {
        assertRejected(mutated(root -> root.remove("publishedAt")), "publishedAt", "missing");
        assertRejected(
                mutated(root -> root.put("publishedAt", "yesterday")), "publishedAt", "expected: an ISO-8601 instant");
        assertRejected(mutated(root -> root.put("publishedAt", 1764497730123L)), "publishedAt", "expected: a string");
    }

    @Test
    void rejectsBadGenerations() {
        assertRejected(mutated(root -> root.remove("generation")), "generation", "missing");
        assertRejected(mutated(root -> root.put("generation", -1)), "generation", "-1 (expected: 0..");
        assertRejected(
                mutated(root -> root.put("generation", 1.5)),
                "generation",
                "'1.5' (expected: an integer 0..9223372036854775807)");
        assertRejected(
                mutated(root -> root.put("generation", new BigInteger("9223372036854775808"))),
                "generation",
                "expected: an integer");
    }

    @Test
    void roundTripsTheValidityWindow() {
        Announcement windowed = codec.decode(utf8(DESIGN_EXAMPLE)).withValidity(Duration.ofSeconds(90));

        byte[] bytes = codec.encode(windowed);

        assertThat(JSON.readTree(bytes).get("validFor").asString()).isEqualTo("PT1M30S");
        assertThat(codec.decode(bytes)).isEqualTo(windowed);
    }

    @Test
    void writesNoValidForWithoutAWindowSoThePlainFormStaysAsItWas() {
        Announcement plain = codec.decode(utf8(DESIGN_EXAMPLE));

        assertThat(plain.validFor()).isNull();
        assertThat(JSON.readTree(codec.encode(plain)).has("validFor")).isFalse();
        assertThat(codec.decode(mutated(root -> root.putNull("validFor"))).validFor())
                .isNull();
    }

    @Test
    void theUnsignedWriterWritesTheCodecsBytesAndSignsNoWindow() {
        Announcement plain = codec.decode(utf8(DESIGN_EXAMPLE));

        assertThat(AnnouncementWriter.unsignedForInsecureLocal().write(plain)).isEqualTo(codec.encode(plain));
        assertThat(AnnouncementWriter.unsignedForInsecureLocal().validity()).isEmpty();
    }

    @Test
    void rejectsBadValidityWindows() {
        assertRejected(
                mutated(root -> root.put("validFor", "5 minutes")), "validFor", "expected: an ISO-8601 duration");
        assertRejected(mutated(root -> root.put("validFor", 300)), "validFor", "expected: a string");
        assertRejected(mutated(root -> root.put("validFor", "PT0.5S")), "validFor", "expected: PT1S..PT24H");
        assertRejected(mutated(root -> root.put("validFor", "PT24H0.001S")), "validFor", "expected: PT1S..PT24H");
        assertRejected(mutated(root -> root.put("validFor", "-PT5M")), "validFor", "expected: PT1S..PT24H");
        assertThat(codec.decode(mutated(root -> root.put("validFor", "PT1S"))).validFor())
                .isEqualTo(Duration.ofSeconds(1));
        assertThat(codec.decode(mutated(root -> root.put("validFor", "PT24H"))).validFor())
                .isEqualTo(Duration.ofDays(1));
    }

    @Test
    void keepsRejectionMessagesShortWhateverTheOffendingValue() {
        String huge = "x".repeat(20_000);

        assertThatThrownBy(() -> codec.decode(mutated(root -> root.put("endpoint", huge))))
                .isInstanceOf(InvalidAnnouncementException.class)
                .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(300));
    }

    private static byte[] mutated(Consumer<ObjectNode> change) {
        ObjectNode root = (ObjectNode) JSON.readTree(DESIGN_EXAMPLE);
        change.accept(root);
        return JSON.writeValueAsBytes(root);
    }

    private void assertRejected(byte[] payload, String field, String reason) {
        assertThatThrownBy(() -> codec.decode(payload))
                .isInstanceOfSatisfying(InvalidAnnouncementException.class, e -> {
                    assertThat(e.field()).isEqualTo(field);
                    assertThat(e.getMessage()).startsWith(field + ": ").contains(reason);
                });
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
