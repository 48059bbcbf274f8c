package dev.egress.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** values.schema.json and the template checks refuse values that would deploy something broken or unsafe. */
class ValuesSchemaTest {

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "app.image.tag                               | latest              | /app/image/tag",
                "border.image.tag                            | latest              | /border/image/tag",
                "app.routing.strategy                        | random              | /app/routing/strategy",
                "app.routing.maxStaleness                    | thirty seconds      | /app/routing/maxStaleness",
                "app.replicaCount                            | 0                   | /app/replicaCount",
                "app.podSecurityContext.runAsNonRoot         | false               | /app/podSecurityContext/runAsNonRoot",
                "border.containerSecurityContext.privileged  | true                | /border/containerSecurityContext/privileged",
                "border.instances[0].borderId                | Border_A            | /border/instances/0/borderId",
                "border.instances[0].ips[0]                  | not-an-ip           | /border/instances/0/ips/0",
                "border.instances[0].ips[0]                  | 10.0.1.5=           | /border/instances/0/ips/0",
                "border.instances[0].ips[0]                  | 10.0.1.5=host.example | /border/instances/0/ips/0",
                "border.ssrf.allowedRanges[0]                | everything          | /border/ssrf/allowedRanges/0",
                "registry.connectionString                   | ydb.example:2136    | /registry/connectionString",
                "auth.internalToken                          | short               | /auth/internalToken",
                "app.unknownKey                              | x                   | /app",
                "app.tenants.policy.tenants[0].id            | -acme               | /app/tenants/policy/tenants/0/id",
                "app.tenants.policy.tenants[0].signing       | yes                 | /app/tenants/policy/tenants/0/signing",
                "app.tenants.policy.tenants[0].retrySchedule[0] | 5w               | /app/tenants/policy/tenants/0/retrySchedule/0",
                "border.placement.pinBy                      | hostname            | /border/placement/pinBy",
                "border.updateStrategy                       | Recreate            | /border/updateStrategy",
                "app.shutdown.preStopSeconds                 | -1                  | /app/shutdown/preStopSeconds",
                "border.drainTimeout                         | 1m30s               | /border/drainTimeout",
            })
    void schemaRejects(String key, String value, String location) {
        ChartRendering.Render render =
                ChartRendering.render().example("values-hostnetwork.yaml").set(key, value);

        assertThatThrownBy(render::text)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("schema")
                .hasMessageContaining(location);
    }

    @Test
    void aDedicatedIpOnTwoBordersIsRejected() {
        ChartRendering.Render render = ChartRendering.render()
                .example("values-multus.yaml")
                .set("border.instances[1].ips[0]", "198.51.100.10");

        assertThatThrownBy(render::text).hasMessageContaining("IP 198.51.100.10 is on both border-a and border-b");
    }

    @Test
    void aPublicAddressBehindTwoPrivateOnesOnTwoBordersIsRejected() {
        ChartRendering.Render render = ChartRendering.render()
                .example("values-aws.yaml")
                .set("border.instances[1].ips[0]", "10.0.2.10=198.51.100.10");

        assertThatThrownBy(render::text).hasMessageContaining("IP 198.51.100.10 is on both border-a and border-b");
    }

    @Test
    void theAwsExampleBindsPrivateAddressesAndAnnouncesTheirElasticIps() {
        Manifests aws = ChartRendering.render().example("values-aws.yaml").manifests();

        assertThat(aws.ofKind("StatefulSet")
                        .map(Manifests::env)
                        .map(env -> env.get("EGRESS_BORDER_IPS"))
                        .toList())
                .containsExactlyInAnyOrder(
                        "10.0.1.10=198.51.100.10,10.0.1.20=198.51.100.20",
                        "10.0.2.10=203.0.113.10,10.0.2.20=203.0.113.20");
    }

    @Test
    void aBorderIdUsedTwiceIsRejected() {
        ChartRendering.Render render =
                ChartRendering.render().example("values-multus.yaml").set("border.instances[1].borderId", "border-a");

        assertThatThrownBy(render::text).hasMessageContaining("borderId \"border-a\" appears twice");
    }

    @Test
    void aDedicatedIpThatIsAlsoSharedIsRejected() {
        ChartRendering.Render render = ChartRendering.render().set("app.tenants.policy.sharedPool[0]", "198.51.100.10");

        assertThatThrownBy(render::text)
                .hasMessageContaining("198.51.100.10 is dedicated to acme and also in sharedPool");
    }

    @Test
    void aSharedTenantWithoutASharedPoolIsRejected() {
        ChartRendering.Render render = ChartRendering.render().set("app.tenants.policy.sharedPool", "null");

        assertThatThrownBy(render::text)
                .hasMessageContaining("tenant small-co has no dedicatedIps and sharedPool is empty");
    }

    @Test
    void documentedExamplesAreValid() {
        assertThatCode(() -> ChartRendering.render()
                        .example("values-hostnetwork.yaml")
                        .text())
                .doesNotThrowAnyException();
        assertThatCode(() ->
                        ChartRendering.render().example("values-multus.yaml").text())
                .doesNotThrowAnyException();
        assertThatCode(() -> ChartRendering.render().example("values-aws.yaml").text())
                .doesNotThrowAnyException();
    }
}
