package dev.egress.ydb.coordination.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tech.ydb.proto.StatusCodesProtos.StatusIds.StatusCode;
import tech.ydb.proto.coordination.Config;
import tech.ydb.proto.coordination.ConsistencyMode;

class CoordinationNodesTest {

    private final CoordinationNodes nodes = new CoordinationNodes("/local");

    @AfterEach
    void close() {
        nodes.close();
    }

    @Test
    void relativeAndAbsolutePathsNameTheSameNode() {
        CoordinationNode created = nodes.create("egress", Config.getDefaultInstance());

        assertThat(created.path()).isEqualTo("/local/egress");
        assertThat(nodes.find("/local/egress/")).containsSame(created);
    }

    @Test
    void createKeepsTheExistingConfig() {
        nodes.create(
                "/local/n", Config.newBuilder().setSelfCheckPeriodMillis(2_000).build());
        nodes.create(
                "/local/n", Config.newBuilder().setSelfCheckPeriodMillis(3_000).build());

        assertThat(nodes.require("/local/n").config().selfCheckPeriodMillis()).isEqualTo(2_000);
    }

    @Test
    void alterWithUnsetFieldsKeepsThem() {
        nodes.create(
                "/local/n",
                Config.newBuilder()
                        .setReadConsistencyMode(ConsistencyMode.CONSISTENCY_MODE_STRICT)
                        .build());

        nodes.alter(
                "/local/n",
                Config.newBuilder().setSessionGracePeriodMillis(20_000).build());

        NodeConfig config = nodes.require("/local/n").config();
        assertThat(config.readConsistencyMode()).isEqualTo(ConsistencyMode.CONSISTENCY_MODE_STRICT);
        assertThat(config.sessionGracePeriodMillis()).isEqualTo(20_000);
    }

    @Test
    void missingNodesAndForeignPathsAreSchemeErrors() {
        assertThatThrownBy(() -> nodes.drop("/local/none"))
                .isInstanceOfSatisfying(
                        NodeOperationException.class,
                        e -> assertThat(e.status()).isEqualTo(StatusCode.SCHEME_ERROR));
        assertThatThrownBy(() -> nodes.create("/other/n", Config.getDefaultInstance()))
                .isInstanceOfSatisfying(
                        NodeOperationException.class,
                        e -> assertThat(e.status()).isEqualTo(StatusCode.SCHEME_ERROR));
    }
}
