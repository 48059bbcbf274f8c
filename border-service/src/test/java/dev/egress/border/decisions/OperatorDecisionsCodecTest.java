package dev.egress.border.decisions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.DecisionStore;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OperatorDecisionsCodecTest {

    private static final BorderId BORDER_A = BorderId.of("border-a");

    private final OperatorDecisionsCodec codec = new OperatorDecisionsCodec();

    @Test
    void writesTheDocumentedFormatSortedByIp() {
        OperatorDecisions decisions = OperatorDecisions.none(BORDER_A)
                .with(EgressIp.of("127.0.0.3"), IpStatus.DISABLED)
                .with(EgressIp.of("127.0.0.2"), IpStatus.ACTIVE);

        assertThat(text(codec.encode(decisions)))
                .isEqualTo("{\"version\":1,\"borderId\":\"border-a\","
                        + "\"decisions\":{\"127.0.0.2\":\"ACTIVE\",\"127.0.0.3\":\"DISABLED\"}}");
    }

    @Test
    void readsBackWhatItWrote() {
        OperatorDecisions decisions = OperatorDecisions.none(BORDER_A)
                .with(EgressIp.of("127.0.0.3"), IpStatus.DISABLED)
                .with(EgressIp.of("2001:db8::1"), IpStatus.DRAINING);

        assertThat(codec.decode(codec.encode(decisions), BORDER_A)).isEqualTo(decisions);
        assertThat(codec.decode(codec.encode(OperatorDecisions.none(BORDER_A)), BORDER_A)
                        .statuses())
                .isEmpty();
    }

    @Test
    void writesAndReadsReleasedIpsOnlyWhenThereAreSome() {
        OperatorDecisions decisions = OperatorDecisions.none(BORDER_A)
                .with(EgressIp.of("127.0.0.3"), IpStatus.DISABLED)
                .withRelease(EgressIp.of("127.0.0.4"), true)
                .withRelease(EgressIp.of("127.0.0.2"), true);

        assertThat(text(codec.encode(decisions)))
                .isEqualTo("{\"version\":1,\"borderId\":\"border-a\",\"decisions\":{\"127.0.0.3\":\"DISABLED\"},"
                        + "\"released\":[\"127.0.0.2\",\"127.0.0.4\"]}");
        assertThat(codec.decode(codec.encode(decisions), BORDER_A)).isEqualTo(decisions);
        assertThat(text(codec.encode(decisions
                        .withRelease(EgressIp.of("127.0.0.2"), false)
                        .withRelease(EgressIp.of("127.0.0.4"), false))))
                .doesNotContain("released");
    }

    @Test
    void ignoresUnknownTopLevelFields() {
        OperatorDecisions read = codec.decode(
                bytes("{\"version\":1,\"borderId\":\"border-a\",\"decisions\":{\"127.0.0.3\":\"DISABLED\"},"
                        + "\"note\":\"abuse #12\"}"),
                BORDER_A);

        assertThat(read.statusOf(EgressIp.of("127.0.0.3"))).contains(IpStatus.DISABLED);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "empty|''|record: empty",
                "not JSON|{\"version\":1,|record: not JSON",
                "trailing data|{\"version\":1,\"borderId\":\"border-a\",\"decisions\":{}} {}|record: not JSON",
                "an array|[1]|record: not a JSON object",
                "no version|{\"borderId\":\"border-a\",\"decisions\":{}}|version: null",
                "another version|{\"version\":2,\"borderId\":\"border-a\",\"decisions\":{}}|version: 2",
                "version as text|{\"version\":\"1\",\"borderId\":\"border-a\",\"decisions\":{}}|version: \"1\"",
                "another Border's|{\"version\":1,\"borderId\":\"border-b\",\"decisions\":{}}|borderId: \"border-b\"",
                "no borderId|{\"version\":1,\"decisions\":{}}|borderId: null",
                "no decisions|{\"version\":1,\"borderId\":\"border-a\"}|decisions: missing",
                "decisions as a list|{\"version\":1,\"borderId\":\"border-a\",\"decisions\":[]}|decisions: []",
                "a non-canonical ip|{\"version\":1,\"borderId\":\"border-a\",\"decisions\":{\"2001:DB8:0::1\":\"DISABLED\"}}|decisions.2001:DB8:0::1: not a canonical IP literal",
                "not an ip|{\"version\":1,\"borderId\":\"border-a\",\"decisions\":{\"host\":\"DISABLED\"}}|decisions.host: not a canonical",
                "a lower-case status|{\"version\":1,\"borderId\":\"border-a\",\"decisions\":{\"127.0.0.3\":\"disabled\"}}|decisions.127.0.0.3: \"disabled\" (expected: ACTIVE, DRAINING or DISABLED)",
                "an unknown status|{\"version\":1,\"borderId\":\"border-a\",\"decisions\":{\"127.0.0.3\":\"OFF\"}}|decisions.127.0.0.3: \"OFF\"",
                "a status as a number|{\"version\":1,\"borderId\":\"border-a\",\"decisions\":{\"127.0.0.3\":2}}|decisions.127.0.0.3: 2",
                "released as an object|{\"version\":1,\"borderId\":\"border-a\",\"decisions\":{},\"released\":{}}|released: {}",
                "a released non-ip|{\"version\":1,\"borderId\":\"border-a\",\"decisions\":{},\"released\":[\"host\"]}|released[0]: not a canonical",
                "a released ip twice|{\"version\":1,\"borderId\":\"border-a\",\"decisions\":{},\"released\":[\"127.0.0.3\",\"127.0.0.3\"]}|released[1]: 127.0.0.3 twice",
                "a duplicate ip|{\"version\":1,\"borderId\":\"border-a\",\"decisions\":{\"127.0.0.3\":\"ACTIVE\",\"127.0.0.3\":\"DISABLED\"}}|record: not JSON (Duplicate Object property",
            })
    void refusesARecordThatBreaksARule(String name, String record, String message) {
        assertThatThrownBy(() -> codec.decode(bytes(record), BORDER_A))
                .isInstanceOf(InvalidDecisionsException.class)
                .hasMessageStartingWith(message);
    }

    @Test
    void refusesNulAndNonAsciiBytes() {
        byte[] nul = bytes("{\"version\":1,\"borderId\":\"border-a\",\"decisions\":{}}");
        nul[3] = 0;
        byte[] high = bytes("{\"version\":1,\"borderId\":\"border-a\",\"decisions\":{},\"x\":\"é\"}");

        assertThatThrownBy(() -> codec.decode(nul, BORDER_A)).hasMessageContaining("NUL or non-ASCII");
        assertThatThrownBy(() -> codec.decode(high, BORDER_A)).hasMessageContaining("NUL or non-ASCII");
        assertThatThrownBy(() -> codec.decode(null, BORDER_A)).hasMessageStartingWith("record: empty");
    }

    @Test
    void refusesARecordAboveTheCapBeforeParsingIt() {
        byte[] huge = new byte[DecisionStore.MAX_BYTES + 1];
        Arrays.fill(huge, (byte) ' ');

        assertThatThrownBy(() -> codec.decode(huge, BORDER_A)).hasMessage("record: 65537 bytes (expected: <= 65536)");
        byte[] atCap = new byte[DecisionStore.MAX_BYTES];
        Arrays.fill(atCap, (byte) ' ');
        assertThatThrownBy(() -> codec.decode(atCap, BORDER_A)).hasMessageStartingWith("record: not a JSON object");
    }

    @Test
    void refusesMoreEntriesThanABorderCanHost() {
        StringBuilder json = new StringBuilder("{\"version\":1,\"borderId\":\"border-a\",\"decisions\":{");
        for (int i = 0; i < 257; i++) {
            json.append(i == 0 ? "" : ",")
                    .append("\"10.0.")
                    .append(i / 256)
                    .append('.')
                    .append(i % 256)
                    .append("\":\"ACTIVE\"");
        }
        json.append("}}");

        assertThatThrownBy(() -> codec.decode(bytes(json.toString()), BORDER_A))
                .hasMessage("decisions: 257 entries (expected: <= 256)");
        Map<EgressIp, IpStatus> tooMany = new HashMap<>();
        for (int i = 0; i < 257; i++) {
            tooMany.put(EgressIp.of("10.0." + i / 256 + "." + i % 256), IpStatus.ACTIVE);
        }
        assertThatThrownBy(() -> new OperatorDecisions(BORDER_A, tooMany))
                .hasMessage("statuses: 257 entries (expected: <= 256)");
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
