package dev.egress.app.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The body the target receives: the caller's {@code payload} bytes exactly as they stand in the request,
 * or the raw {@code body}/{@code bodyBase64} forms, each with its {@code Content-Type}; and the header
 * rule checked before anything is sent.
 */
class DeliveryBodyTest {

    private static final String HEAD = "{\"tenantId\":\"acme\",\"url\":\"http://127.0.0.1:9999/hook\"";

    private final DeliveryRequestParser parser = new DeliveryRequestParser();

    private DeliveryRequest parse(String json) {
        return parser.parse(json.getBytes(StandardCharsets.UTF_8));
    }

    private static String text(DeliveryRequest request) {
        return new String(request.body(), StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"amount\": 0.30000000000000000001, \"n\": 1.10, \"e\": 1E+2}",
                "{ \"s\" : \"caf\\u00e9 \\ud83d\\ude00 \\\"q\\\" \\/\" ,\n\t\"a\" : [ 1 , 2 ] }",
                "[1.0,-0,1e-7]",
                "\"caf\\u00e9\"",
                "-12.500E+03",
                "true",
                "null",
                "{}",
                "\"\u00e9t\u00e9 \uD83D\uDE00\""
            })
    void keepsThePayloadsBytesExactly(String payload) {
        assertThat(text(parse(HEAD + ",\"payload\":" + payload + "}"))).isEqualTo(payload);
        // Wherever the payload stands, with any whitespace and comma around it.
        assertThat(text(parse("{\"payload\" :\r\n " + payload + " \n, " + HEAD.substring(1) + " }")))
                .isEqualTo(payload);
        assertThat(text(parse(HEAD + " ,\t\"payload\"\t:\t" + payload + "\t,\"method\":\"POST\"}")))
                .isEqualTo(payload);
    }

    @Test
    void keepsThePayloadExactlyAfterAUtf8ByteOrderMark() {
        byte[] json = (HEAD + ",\"payload\":{\"n\":1.10}}").getBytes(StandardCharsets.UTF_8);
        byte[] withBom = new byte[json.length + 3];
        withBom[0] = (byte) 0xEF;
        withBom[1] = (byte) 0xBB;
        withBom[2] = (byte) 0xBF;
        System.arraycopy(json, 0, withBom, 3, json.length);

        assertThat(text(parser.parse(withBom))).isEqualTo("{\"n\":1.10}");
    }

    @Test
    void refusesJsonThatIsNotUtf8() {
        byte[] utf16 = (HEAD + ",\"payload\":1}").getBytes(StandardCharsets.UTF_16BE);

        assertThatThrownBy(() -> parser.parse(utf16))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("UTF-8");
    }

    @Test
    void stillRefusesAMalformedDeeplyNestedOrDuplicateKeyedPayloadThoughItIsNotBuilt() {
        assertThatThrownBy(() -> parse(HEAD + ",\"payload\":{\"a\":[1,}}"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessageStartingWith("body: not valid JSON");
        assertThatThrownBy(() -> parse(HEAD + ",\"payload\":" + "[".repeat(5000) + "]".repeat(5000) + "}"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessageStartingWith("body: not valid JSON");
        assertThatThrownBy(() -> parse(HEAD + ",\"payload\":{\"a\":1,\"a\":2}}"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("Duplicate");
        assertThatThrownBy(() -> parse(HEAD + ",\"payload\":1} {}"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("trailing");
    }

    @Test
    void givesAPayloadApplicationJsonUnlessTheCallerNamesAType() {
        assertThat(parse(HEAD + ",\"payload\":{}}").headers()).containsEntry("Content-Type", "application/json");
        assertThat(parse(HEAD + ",\"headers\":{\"content-type\":\"application/cloudevents+json\"},\"payload\":{}}")
                        .headers())
                .containsEntry("content-type", "application/cloudevents+json")
                .doesNotContainKey("Content-Type");
    }

    @Test
    void sendsATextBodyAsItsUtf8BytesWithTheCallersContentType() {
        DeliveryRequest form = parse(HEAD
                + ",\"headers\":{\"Content-Type\":\"application/x-www-form-urlencoded\"},\"body\":\"a=1&b=%C3%A9\"}");
        DeliveryRequest xml = parse(HEAD + ",\"headers\":{\"Content-Type\":\"application/xml\"},"
                + "\"body\":\"<a x=\\\"\u00e9\\\">\\n</a>\"}");

        assertThat(text(form)).isEqualTo("a=1&b=%C3%A9");
        assertThat(form.headers()).containsEntry("Content-Type", "application/x-www-form-urlencoded");
        assertThat(xml.body()).isEqualTo("<a x=\"\u00e9\">\n</a>".getBytes(StandardCharsets.UTF_8));
        assertThat(parse(HEAD + ",\"body\":\"hi\"}").headers())
                .containsEntry("Content-Type", "text/plain; charset=utf-8");
    }

    @Test
    void decodesBodyBase64ToAnyBytes() {
        byte[] bytes = {(byte) 0xff, 0x00, (byte) 0xc3, 0x28, 0x7f};
        DeliveryRequest request =
                parse(HEAD + ",\"bodyBase64\":\"" + Base64.getEncoder().encodeToString(bytes) + "\"}");

        assertThat(request.body()).isEqualTo(bytes);
        assertThat(request.headers()).containsEntry("Content-Type", "application/octet-stream");
        assertThat(parse(HEAD + ",\"bodyBase64\":\"\"}").body()).isEmpty();
    }

    @Test
    void refusesTwoBodyFormsNamingThem() {
        assertThatThrownBy(() -> parse(HEAD + ",\"payload\":{},\"body\":\"x\"}"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessageStartingWith("payload,body: give one body form");
        assertThatThrownBy(() -> parse(HEAD + ",\"bodyBase64\":\"eA==\",\"body\":\"x\"}"))
                .hasMessageStartingWith("body,bodyBase64:");
    }

    @Test
    void refusesBodyFormsThatAreNotStringsOrNotBase64() {
        assertThatThrownBy(() -> parse(HEAD + ",\"body\":{}}")).hasMessageStartingWith("body: expected a string");
        assertThatThrownBy(() -> parse(HEAD + ",\"bodyBase64\":\"not base64!\"}"))
                .hasMessageStartingWith("bodyBase64: not base64");
        // A lone surrogate escape cannot be encoded as UTF-8: getBytes would send '?' instead.
        assertThatThrownBy(() -> parse(HEAD + ",\"body\":\"a\\ud800b\"}"))
                .hasMessageStartingWith("body: unpaired surrogate at index 1");
    }

    @Test
    void letsGetAndDeleteGoWithoutAnyBodyForm() {
        DeliveryRequest request = parse(HEAD + ",\"method\":\"GET\"}");

        assertThat(request.body()).isNull();
        assertThat(request.headers()).doesNotContainKey("Content-Type");
        assertThatThrownBy(() -> parse(HEAD + "}")).hasMessageContaining("body or bodyBase64");
    }

    @ParameterizedTest
    @ValueSource(strings = {"a\\u0001b", "a\\u007fb", "a\\u0000b", "a\\rb", " leading", "\\tleading", "\\u65e5"})
    void refusesAHeaderValueTheHttpClientWouldRefuseOrMangleNamingTheHeader(String value) {
        assertThatThrownBy(() -> parse(HEAD + ",\"headers\":{\"X-Sig\":\"" + value + "\"},\"payload\":{}}"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessageStartingWith("headers.X-Sig: U+");
    }

    @ParameterizedTest
    @ValueSource(strings = {"a\\tb", "trailing ", "caf\\u00e9", "", "v=1, t=2; \\\"q\\\""})
    void acceptsHeaderValuesTheHttpClientSends(String value) {
        assertThat(parse(HEAD + ",\"headers\":{\"X-Sig\":\"" + value + "\"},\"payload\":{}}")
                        .headers())
                .containsKey("X-Sig");
    }

    @Test
    void refusesAHeaderNameThatIsNotAToken() {
        assertThatThrownBy(() -> parse(HEAD + ",\"headers\":{\"X Sig\":\"v\"},\"payload\":{}}"))
                .hasMessageStartingWith("headers: 'X Sig' is not a valid header name");
    }

    @Test
    void fingerprintsWhatTheTargetReceivesNotHowTheRequestIsSpelt() {
        DeliveryRequest payload = parse(HEAD + ",\"payload\":{\"n\":1.10}}");
        DeliveryRequest reformatted = parse("{ \"payload\" : {\"n\":1.10} , " + HEAD.substring(1) + "}");
        DeliveryRequest otherNumber = parse(HEAD + ",\"payload\":{\"n\":1.1}}");
        DeliveryRequest asText = parse(HEAD + ",\"body\":\"a\"}");
        DeliveryRequest asBase64 =
                parse(HEAD + ",\"headers\":{\"Content-Type\":\"text/plain; charset=utf-8\"},\"bodyBase64\":\"YQ==\"}");
        DeliveryRequest otherUrl = parse(HEAD.replace("/hook", "/other") + ",\"payload\":{\"n\":1.10}}");
        DeliveryRequest emptyBody = parse(HEAD + ",\"method\":\"GET\",\"body\":\"\"}");
        DeliveryRequest noBody =
                parse(HEAD + ",\"method\":\"GET\",\"headers\":{\"Content-Type\":\"text/plain; " + "charset=utf-8\"}}");

        assertThat(reformatted.fingerprint()).isEqualTo(payload.fingerprint());
        assertThat(asBase64.fingerprint()).isEqualTo(asText.fingerprint());
        assertThat(otherNumber.fingerprint()).isNotEqualTo(payload.fingerprint());
        assertThat(otherUrl.fingerprint()).isNotEqualTo(payload.fingerprint());
        assertThat(emptyBody.fingerprint()).isNotEqualTo(noBody.fingerprint());
    }
}
