package dev.egress.border.decisions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StartupDecisionsTest {

    private static final BorderId BORDER_A = BorderId.of("border-a");
    private static final EgressIp IP2 = EgressIp.of("127.0.0.2");
    private static final EgressIp IP3 = EgressIp.of("127.0.0.3");
    private static final EgressIp IP6 = EgressIp.of("127.0.0.6");
    private static final List<EgressIp> CONFIGURED = List.of(IP3, IP2);

    private final OperatorDecisionsCodec codec = new OperatorDecisionsCodec();
    private final DecisionRecords records = DecisionRecords.unsigned();

    @Test
    void everyIpStartsWithTheInitialStatusWhenNothingWasStored() {
        StartupDecisions start = decide(new StartupDecisions.NothingStored(), IpStatus.ACTIVE);

        assertThat(start.statuses()).containsExactly(Map.entry(IP3, IpStatus.ACTIVE), Map.entry(IP2, IpStatus.ACTIVE));
        assertThat(start.state()).isEqualTo(DecisionsState.of(DecisionsState.Kind.NOTHING_STORED));
        assertThat(start.decisions().statuses()).isEmpty();
        assertThat(start.ignored()).isEmpty();
    }

    @Test
    void aStoredDecisionWinsOverTheInitialStatus() {
        StartupDecisions start = decide(stored(Map.of(IP3, IpStatus.DISABLED)), IpStatus.ACTIVE);

        assertThat(start.statuses())
                .containsExactly(Map.entry(IP3, IpStatus.DISABLED), Map.entry(IP2, IpStatus.ACTIVE));
        assertThat(start.state().kind()).isEqualTo(DecisionsState.Kind.RESTORED);
        assertThat(start.decisions().statuses()).containsExactly(Map.entry(IP3, IpStatus.DISABLED));
    }

    @Test
    void aStoredActiveWinsOverAnInitialDisabled() {
        StartupDecisions start = decide(stored(Map.of(IP2, IpStatus.ACTIVE)), IpStatus.DISABLED);

        assertThat(start.statuses())
                .containsExactly(Map.entry(IP3, IpStatus.DISABLED), Map.entry(IP2, IpStatus.ACTIVE));
    }

    @Test
    void aDecisionForAnIpNoLongerConfiguredIsIgnoredAndDropped() {
        StartupDecisions start =
                decide(stored(Map.of(IP6, IpStatus.DISABLED, IP3, IpStatus.DRAINING)), IpStatus.ACTIVE);

        assertThat(start.statuses())
                .containsExactly(Map.entry(IP3, IpStatus.DRAINING), Map.entry(IP2, IpStatus.ACTIVE));
        assertThat(start.ignored()).containsExactly(IP6);
        assertThat(start.decisions().statuses()).containsOnlyKeys(IP3);
    }

    @Test
    void aCorruptRecordStartsEveryIpDisabled() {
        StartupDecisions start = decide(
                new StartupDecisions.Stored("{\"version\":1,".getBytes(StandardCharsets.UTF_8)), IpStatus.ACTIVE);

        assertThat(start.statuses())
                .containsExactly(Map.entry(IP3, IpStatus.DISABLED), Map.entry(IP2, IpStatus.DISABLED));
        assertThat(start.state().kind()).isEqualTo(DecisionsState.Kind.FAIL_CLOSED);
        assertThat(start.state().reason()).startsWith("the stored record is unreadable: record: not JSON");
        // The next operator change stores what is running: every other IP stays DISABLED after a restart too.
        assertThat(start.decisions().statuses())
                .containsOnly(Map.entry(IP3, IpStatus.DISABLED), Map.entry(IP2, IpStatus.DISABLED));
    }

    @Test
    void anotherBordersRecordStartsEveryIpDisabled() {
        byte[] other = codec.encode(new OperatorDecisions(BorderId.of("border-b"), Map.of(IP3, IpStatus.ACTIVE)));

        StartupDecisions start = decide(new StartupDecisions.Stored(other), IpStatus.ACTIVE);

        assertThat(start.statuses().values()).containsOnly(IpStatus.DISABLED);
        assertThat(start.state().reason()).contains("borderId: \"border-b\"");
    }

    @Test
    void aFailedReadStartsEveryIpDisabledWithTheReason() {
        StartupDecisions start = decide(new StartupDecisions.ReadFailed("registry down"), IpStatus.ACTIVE);

        assertThat(start.statuses().values()).containsOnly(IpStatus.DISABLED).hasSize(2);
        assertThat(start.state()).isEqualTo(DecisionsState.failClosed("the read failed: registry down"));
        assertThat(start.ignored()).isEmpty();
    }

    @Test
    void aMissingRecordOfABorderThatRemembersStoringOneStartsEveryIpDisabled() {
        StartupDecisions start = StartupDecisions.decide(
                BORDER_A,
                CONFIGURED,
                IpStatus.ACTIVE,
                new StartupDecisions.NothingStored(),
                records,
                new StartupDecisions.Remembers(3));

        assertThat(start.statuses().values()).containsOnly(IpStatus.DISABLED).hasSize(2);
        assertThat(start.state().reason()).contains("missing").contains("record number 3");
        // The next write outnumbers what the Border remembers.
        assertThat(start.decisions().sequence()).isEqualTo(3);
    }

    @Test
    void aRecordOlderThanTheRememberedOneIsAReplayAndStartsEveryIpDisabled() {
        byte[] older = codec.encode(new OperatorDecisions(BORDER_A, Map.of(IP3, IpStatus.ACTIVE), Set.of(), 2));

        StartupDecisions replayed = StartupDecisions.decide(
                BORDER_A,
                CONFIGURED,
                IpStatus.ACTIVE,
                new StartupDecisions.Stored(older),
                records,
                new StartupDecisions.Remembers(3));
        StartupDecisions current = StartupDecisions.decide(
                BORDER_A,
                CONFIGURED,
                IpStatus.ACTIVE,
                new StartupDecisions.Stored(older),
                records,
                new StartupDecisions.Remembers(2));

        assertThat(replayed.statuses().values()).containsOnly(IpStatus.DISABLED);
        assertThat(replayed.state().reason())
                .contains("number 2, older than number 3")
                .contains("replay");
        assertThat(current.state().kind()).isEqualTo(DecisionsState.Kind.RESTORED);
        assertThat(current.statuses()).containsEntry(IP3, IpStatus.ACTIVE);
    }

    @Test
    void anUnreadableStateFileStartsEveryIpDisabledAndNothingRememberedIsANewBorder() {
        StartupDecisions unreadable = StartupDecisions.decide(
                BORDER_A,
                CONFIGURED,
                IpStatus.ACTIVE,
                new StartupDecisions.NothingStored(),
                records,
                new StartupDecisions.Unreadable("state.json: not JSON"));
        StartupDecisions fresh = StartupDecisions.decide(
                BORDER_A,
                CONFIGURED,
                IpStatus.ACTIVE,
                new StartupDecisions.NothingStored(),
                records,
                new StartupDecisions.Remembers(0));

        assertThat(unreadable.statuses().values()).containsOnly(IpStatus.DISABLED);
        assertThat(unreadable.state().reason()).contains("egress.decisions.state-file is unreadable");
        assertThat(fresh.state().kind()).isEqualTo(DecisionsState.Kind.NOTHING_STORED);
    }

    private StartupDecisions decide(StartupDecisions.Read read, IpStatus initial) {
        return StartupDecisions.decide(BORDER_A, CONFIGURED, initial, read, records);
    }

    private StartupDecisions.Stored stored(Map<EgressIp, IpStatus> statuses) {
        return new StartupDecisions.Stored(codec.encode(new OperatorDecisions(BORDER_A, statuses)));
    }
}
