package dev.egress.border.decisions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.trust.Identity;
import dev.egress.discovery.trust.ReloadingFile;
import dev.egress.discovery.trust.TrustBundle;
import dev.egress.discovery.trust.testing.TestPki;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Decision records on the trust chain: signed by the Border's key, verified on read, failing closed otherwise. */
class DecisionRecordsTest {

    private static final BorderId BORDER_A = BorderId.of("border-a");
    private static final EgressIp IP2 = EgressIp.of("127.0.0.2");
    private static final EgressIp IP3 = EgressIp.of("127.0.0.3");

    static TestPki pki;
    static TrustBundle ca;
    static Identity borderA;
    static Identity borderB;

    private final AtomicReference<Identity> current = new AtomicReference<>();
    private final OperatorDecisions disabled = new OperatorDecisions(BORDER_A, Map.of(IP3, IpStatus.DISABLED));

    @BeforeAll
    static void issue() {
        pki = TestPki.create("decisions-ca");
        borderA = TestPki.identity(pki.border("border-a", "127.0.0.2", "127.0.0.3"));
        borderB = TestPki.identity(pki.border("border-b", "127.0.0.2", "127.0.0.3"));
        try (ReloadingFile<TrustBundle> file = ReloadingFile.bundle(pki.caPem(), "ca", Duration.ofHours(1))) {
            ca = file.get();
        }
    }

    private DecisionRecords records() {
        return DecisionRecords.signed(current::get, () -> ca, "egress.local");
    }

    @Test
    void aSignedRecordReadsBackAndSurvivesARotationOfTheKey() {
        current.set(borderA);
        byte[] stored = records().encode(disabled);

        assertThat(new String(stored, StandardCharsets.US_ASCII))
                .contains("\"signature\"")
                .contains("\"chain\"");
        assertThat(records().decode(stored, BORDER_A)).isEqualTo(disabled);

        current.set(TestPki.identity(pki.border("border-a", "127.0.0.2", "127.0.0.3")));
        assertThat(records().decode(stored, BORDER_A)).isEqualTo(disabled);
    }

    @Test
    void anUnsignedOrForeignRecordStartsEveryIpDisabled() {
        current.set(borderA);
        // What a registry writer can put there: the plain JSON that the Border once wrote, with DISABLED undone,
        // or a record another Border signed.
        byte[] unsigned =
                new OperatorDecisionsCodec().encode(new OperatorDecisions(BORDER_A, Map.of(IP3, IpStatus.ACTIVE)));
        current.set(borderB);
        byte[] foreign = DecisionRecords.signed(() -> borderB, () -> ca, "egress.local")
                .encode(new OperatorDecisions(BORDER_A, Map.of(IP3, IpStatus.ACTIVE)));
        current.set(borderA);

        for (byte[] record : List.of(unsigned, foreign)) {
            assertThatThrownBy(() -> records().decode(record, BORDER_A))
                    .isInstanceOf(InvalidDecisionsException.class)
                    .hasMessageStartingWith("signature: ");
            StartupDecisions start = StartupDecisions.decide(
                    BORDER_A, List.of(IP2, IP3), IpStatus.ACTIVE, new StartupDecisions.Stored(record), records());
            assertThat(start.statuses().values()).containsOnly(IpStatus.DISABLED);
            assertThat(start.state().kind()).isEqualTo(DecisionsState.Kind.FAIL_CLOSED);
            assertThat(start.state().reason()).startsWith("the stored record is unreadable: signature: ");
        }
    }

    @Test
    void insecureLocalReadsSignedAndPlainRecordsAlike() {
        current.set(borderA);
        byte[] signed = records().encode(disabled);

        assertThat(DecisionRecords.unsigned().decode(signed, BORDER_A)).isEqualTo(disabled);
        assertThat(DecisionRecords.unsigned().decode(DecisionRecords.unsigned().encode(disabled), BORDER_A))
                .isEqualTo(disabled);
    }

    @Test
    void theUpgradeSwitchReadsAnUnsignedRecordAndAsksForItToBeStoredSigned() {
        current.set(borderA);
        byte[] unsigned = new OperatorDecisionsCodec().encode(disabled);
        DecisionRecords upgrading = DecisionRecords.signed(current::get, () -> ca, "egress.local", true);

        assertThat(upgrading.decode(unsigned, BORDER_A)).isEqualTo(disabled);
        assertThat(upgrading.needsSigning(unsigned)).isTrue();
        assertThat(upgrading.needsSigning(upgrading.encode(disabled))).isFalse();
        assertThat(records().needsSigning(unsigned)).isTrue();
    }
}
