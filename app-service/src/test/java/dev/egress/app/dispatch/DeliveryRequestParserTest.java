package dev.egress.app.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The parser's rules that a user meets first: unknown fields and bodiless methods. */
class DeliveryRequestParserTest {

    private static final String URL = "\"url\":\"http://127.0.0.1:9999/hook\"";

    private final DeliveryRequestParser parser = new DeliveryRequestParser();

    private DeliveryRequest parse(String json) {
        return parser.parse(json.getBytes(StandardCharsets.UTF_8));
    }

    private static String text(DeliveryRequest request) {
        return new String(request.body(), StandardCharsets.UTF_8);
    }

    @Test
    void refusesAnUnknownFieldNamingItAndTheFieldsThatExist() {
        // "header" instead of "headers" would otherwise silently drop a signature header.
        assertThatThrownBy(
                        () -> parse("{\"tenantId\":\"acme\"," + URL + ",\"header\":{\"X-Sig\":\"s\"},\"payload\":{}}"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("header")
                .hasMessageContaining("unknown field")
                .hasMessageContaining("headers");
    }

    @Test
    void acceptsEveryDocumentedField() {
        DeliveryRequest request = parse("{\"tenantId\":\"acme\"," + URL
                + ",\"method\":\"PUT\",\"headers\":{\"X-Sig\":\"s\"},\"payload\":{\"a\":1}}");

        assertThat(request.method()).isEqualTo("PUT");
        assertThat(request.headers()).containsEntry("X-Sig", "s");
        assertThat(text(request)).isEqualTo("{\"a\":1}");
    }

    @ParameterizedTest
    @ValueSource(strings = {"GET", "DELETE"})
    void sendsNoBodyForABodilessMethodWithoutPayload(String method) {
        assertThat(parse("{\"tenantId\":\"acme\"," + URL + ",\"method\":\"" + method + "\"}")
                        .body())
                .isNull();
        assertThat(parse("{\"tenantId\":\"acme\"," + URL + ",\"method\":\"" + method + "\",\"payload\":null}")
                        .body())
                .isNull();
    }

    @Test
    void keepsAnExplicitPayloadOfABodilessMethod() {
        assertThat(text(parse("{\"tenantId\":\"acme\"," + URL + ",\"method\":\"DELETE\",\"payload\":{\"id\":7}}")))
                .isEqualTo("{\"id\":7}");
    }

    @ParameterizedTest
    @ValueSource(strings = {"POST", "PUT", "PATCH"})
    void stillRequiresAPayloadForMethodsThatCarryABody(String method) {
        assertThatThrownBy(() -> parse("{\"tenantId\":\"acme\"," + URL + ",\"method\":\"" + method + "\"}"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("payload");
        // An explicit JSON null is a payload for these methods: it is sent as the JSON text "null".
        assertThat(text(parse("{\"tenantId\":\"acme\"," + URL + ",\"method\":\"" + method + "\",\"payload\":null}")))
                .isEqualTo("null");
    }
}
