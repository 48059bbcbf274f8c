package dev.egress.helm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docker-compose.yml runs durable delivery on its real YDB: App's store is the registry's database on the
 * {@code ydb} service, which App waits for, and acme's webhooks are signed with a secret App can read.
 */
class ComposeDeliveryTest {

    private static final Path REPOSITORY = ChartRendering.CHART.getParent().getParent();

    @SuppressWarnings("unchecked")
    private static Map<String, Object> service(String name) {
        Map<String, Object> compose =
                ChartRendering.yaml().load(ChartRendering.read(REPOSITORY.resolve("docker-compose.yml")));
        return (Map<String, Object>) ((Map<String, Object>) compose.get("services")).get(name);
    }

    @Test
    void appStoresDurableDeliveriesInTheRegistrysDatabaseOnTheYdbService() {
        Map<String, Object> app = service("app");
        Map<String, Object> env = Manifests.at(app, "environment");

        assertThat(env.get("EGRESS_DELIVERY_STORE_CONNECTIONSTRING"))
                .isEqualTo("grpc://ydb:2136/local")
                .isEqualTo(env.get("EGRESS_REGISTRY_CONNECTIONSTRING"));
        assertThat(Manifests.<String>at(app, "depends_on", "ydb", "condition")).isEqualTo("service_healthy");
        assertThat(Manifests.<String>at(service("ydb"), "hostname")).isEqualTo("ydb");
    }

    @Test
    void acmeSignsWithASecretFileMountedWhereAppReadsIt() {
        Map<String, Object> app = service("app");
        String secretsFile = Manifests.at(app, "environment", "EGRESS_SIGNING_SECRETSFILE");
        List<String> volumes = Manifests.at(app, "volumes");

        assertThat(volumes).contains("./local/signing-secrets.yaml:" + secretsFile + ":ro");
        Map<String, Object> secrets =
                ChartRendering.yaml().load(ChartRendering.read(REPOSITORY.resolve("local/signing-secrets.yaml")));
        assertThat(secrets.get("acme")).asString().startsWith("whsec_");
        Map<String, Object> tenants =
                ChartRendering.yaml().load(ChartRendering.read(REPOSITORY.resolve("local/tenants-compose.yaml")));
        assertThat(Manifests.<List<Map<String, Object>>>at(tenants, "tenants"))
                .filteredOn(t -> "acme".equals(t.get("id")))
                .singleElement()
                .satisfies(acme -> assertThat(acme).containsEntry("signing", true));
    }
}
