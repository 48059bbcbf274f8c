package dev.egress.helm;

import static dev.egress.helm.Manifests.env;
import static dev.egress.helm.Manifests.mounts;
import static dev.egress.helm.Manifests.podSpec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code app.delivery}: durable delivery's store (docs/delivery.md) reaches App as {@code egress.delivery.store.*}
 * and {@code egress.delivery.buckets.node}, on the registry's database unless told otherwise, with a token of its
 * own: App's registry token is read-only, and the store writes its tables and acquires the buckets' semaphores.
 */
class AppDeliveryTest {

    private static final String REGISTRY = "grpc://ydb-grpc.ydb.svc.cluster.local:2135/Root/egress";

    @Test
    void durableDeliveryIsOnByDefaultOnTheRegistrysDatabase() {
        Map<String, Object> app = ChartRendering.render().manifests().app();

        assertThat(env(app))
                .containsEntry("EGRESS_DELIVERY_STORE_CONNECTIONSTRING", REGISTRY)
                .containsEntry("EGRESS_DELIVERY_STORE_TABLEPREFIX", "")
                .containsEntry("EGRESS_DELIVERY_BUCKETS_NODE", "egress-delivery")
                .doesNotContainKeys("EGRESS_DELIVERY_STORE_TOKENFILE", "EGRESS_DELIVERY_STORE_TOKEN");
        assertThat(mounts(app)).doesNotContainValue("delivery-store-token");
    }

    @Test
    void theNotesSayWhereDurableDeliveriesAreStored(@TempDir Path work) throws IOException {
        // helm template leaves NOTES.txt out: render it through tpl into a ConfigMap of a copy of the chart.
        Path chart = ChartRendering.copyOfChart(work, null, null);
        Files.move(chart.resolve("templates/NOTES.txt"), chart.resolve("files/notes.txt"));
        Files.writeString(
                chart.resolve("templates/notes-for-test.yaml"),
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: notes\ndata:\n"
                        + "  notes: {{ tpl (.Files.Get \"files/notes.txt\") . | toJson }}\n");

        assertThat(notes(ChartRendering.render(chart)))
                .contains("Durable delivery (docs/delivery.md): on, stored in " + REGISTRY)
                .contains("buckets on the coordination node egress-delivery");
        assertThat(notes(ChartRendering.render(chart).set("app.delivery.enabled", false)))
                .doesNotContain("Durable delivery");
    }

    private static String notes(ChartRendering.Render render) {
        return (String) Manifests.<Map<String, Object>>at(render.manifests().named("ConfigMap", "notes"), "data")
                .get("notes");
    }

    @Test
    void everyStoreValueReachesItsProperty() {
        Map<String, Object> app = ChartRendering.render()
                .set("app.delivery.store.connectionString", "grpcs://ydb.example:2135/Root/deliveries")
                .set("app.delivery.store.tablePrefix", "egress_prod/")
                .set("app.delivery.store.tokenSecret.name", "ydb-app-delivery")
                .set("app.delivery.store.tokenSecret.key", "writer-token")
                .set("app.delivery.buckets.node", "egress-prod-delivery")
                .manifests()
                .app();

        assertThat(env(app))
                .containsEntry("EGRESS_DELIVERY_STORE_CONNECTIONSTRING", "grpcs://ydb.example:2135/Root/deliveries")
                .containsEntry("EGRESS_DELIVERY_STORE_TABLEPREFIX", "egress_prod/")
                .containsEntry("EGRESS_DELIVERY_BUCKETS_NODE", "egress-prod-delivery")
                .containsEntry("EGRESS_DELIVERY_STORE_TOKENFILE", "/etc/egress/delivery-store-token/writer-token")
                // The registry keeps its own (here anonymous) credential: the store's token is not the registry's.
                .doesNotContainKey("EGRESS_REGISTRY_TOKENFILE");
        assertThat(mounts(app)).containsEntry("/etc/egress/delivery-store-token", "delivery-store-token");
        assertThat(Manifests.<String>at(Manifests.volume(app, "delivery-store-token"), "secret", "secretName"))
                .isEqualTo("ydb-app-delivery");
        assertThat(Manifests.<List<Map<String, String>>>at(
                        Manifests.volume(app, "delivery-store-token"), "secret", "items"))
                .containsExactly(Map.of("key", "writer-token", "path", "writer-token"));
        KubernetesApiSchema.validate(app);
    }

    @Test
    void aDisabledStoreTellsAppNothingAndMountsNothing() {
        Map<String, Object> app = ChartRendering.render()
                .set("app.delivery.enabled", false)
                .set("app.delivery.store.tokenSecret.name", "ydb-app-delivery")
                .manifests()
                .app();

        assertThat(env(app).keySet()).noneMatch(name -> name.startsWith("EGRESS_DELIVERY_"));
        List<Map<String, Object>> volumes = Manifests.at(podSpec(app), "volumes");
        assertThat(volumes).extracting(v -> v.get("name")).doesNotContain("delivery-store-token");
    }

    @Test
    void theStoreOnAnAuthenticatedRegistryDatabaseNeedsATokenOfItsOwn() {
        // App's registry token is read-only: with it the store could neither write a record nor take a bucket.
        ChartRendering.Render render = ChartRendering.render()
                .set("registry.connectionString", "grpcs://ydb.example:2135/prod")
                .set("registry.tokenSecret.name", "ydb-border-token")
                .set("registry.appTokenSecret.name", "ydb-app-reader");

        assertThatThrownBy(render::text)
                .hasMessageContaining("app.delivery.store.tokenSecret.name: required when registry.tokenSecret is set");
        assertThat(render.set("app.delivery.store.tokenSecret.name", "ydb-app-delivery")
                        .manifests()
                        .app())
                .satisfies(app -> assertThat(env(app))
                        .containsEntry("EGRESS_DELIVERY_STORE_CONNECTIONSTRING", "grpcs://ydb.example:2135/prod")
                        .containsEntry("EGRESS_DELIVERY_STORE_TOKENFILE", "/etc/egress/delivery-store-token/token")
                        .containsEntry("EGRESS_REGISTRY_TOKENFILE", "/etc/egress/registry-token/token"));
        assertThat(ChartRendering.render()
                        .set("registry.connectionString", "grpcs://ydb.example:2135/prod")
                        .set("registry.tokenSecret.name", "ydb-border-token")
                        .set("registry.appTokenSecret.name", "ydb-app-reader")
                        .set("app.delivery.enabled", false)
                        .manifests()
                        .app())
                .as("no store, no token needed")
                .isNotNull();
    }

    @Test
    void theSchemaRefusesAStoreThatIsNotAConnectionStringAndABadTablePrefix() {
        assertThatThrownBy(() -> ChartRendering.render()
                        .set("app.delivery.store.connectionString", "ydb.example:2135")
                        .text())
                .hasMessageContaining("schema")
                .hasMessageContaining("/app/delivery/store/connectionString");
        assertThatThrownBy(() -> ChartRendering.render()
                        .set("app.delivery.store.tablePrefix", "egress-prod")
                        .text())
                .hasMessageContaining("schema")
                .hasMessageContaining("/app/delivery/store/tablePrefix");
    }
}
