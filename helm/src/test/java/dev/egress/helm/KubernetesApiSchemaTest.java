package dev.egress.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every object the chart renders, for the test values and for each example, fits the Kubernetes API schema. */
class KubernetesApiSchemaTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"", "values-hostnetwork.yaml", "values-aws.yaml", "values-multus.yaml"})
    void everyRenderedObjectFitsTheKubernetesApiSchema(String example) {
        ChartRendering.Render render = ChartRendering.render()
                .set("metrics.serviceMonitor.enabled", true)
                .set("app.service.annotations.example\\.com/owner", "egress")
                .set("commonAnnotations.example\\.com/team", "platform");
        if (!example.isEmpty()) {
            render = render.example(example);
        }
        Manifests manifests = render.manifests();

        assertThat(manifests.objects()).isNotEmpty().allSatisfy(KubernetesApiSchema::validate);
    }

    @Test
    void theShippedExampleManifestsFitTheKubernetesApiSchema() {
        Map<String, Object> namespace = ChartRendering.yaml()
                .load(ChartRendering.read(ChartRendering.EXAMPLES.resolve("namespace-borders.yaml")));

        KubernetesApiSchema.validate(namespace);
    }

    @Test
    void aFieldInTheWrongPlaceFailsValidation() {
        Manifests manifests = ChartRendering.render().manifests();
        Map<String, Object> service = new LinkedHashMap<>(manifests.named("Service", ChartRendering.PREFIX + "-app"));
        Map<String, Object> spec = new LinkedHashMap<>(Manifests.at(service, "spec"));
        spec.put("annotations", Map.of("service.beta.kubernetes.io/aws-load-balancer-scheme", "internal"));
        service.put("spec", spec);

        assertThatThrownBy(() -> KubernetesApiSchema.validate(service))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("annotations");
    }

    @Test
    void aFieldInTheWrongPlaceDeepInAPodTemplateFailsValidation() {
        Manifests manifests =
                ChartRendering.render().example("values-hostnetwork.yaml").manifests();
        String border = ChartRendering.yaml()
                .dump(manifests.border("border-a"))
                .replace("terminationGracePeriodSeconds: 60", "terminationGracePeriodSecond: 60");
        Map<String, Object> misspelt = ChartRendering.yaml().load(border);
        Map<String, Object> misplaced =
                ChartRendering.yaml().load(ChartRendering.yaml().dump(manifests.border("border-a")));
        Manifests.containers(misplaced).get(0).put("hostNetwork", true);

        assertThatThrownBy(() -> KubernetesApiSchema.validate(misspelt))
                .hasMessageContaining("terminationGracePeriodSecond");
        assertThatThrownBy(() -> KubernetesApiSchema.validate(misplaced)).hasMessageContaining("hostNetwork");
    }

    @Test
    void aMissingRequiredFieldFailsValidation() {
        Manifests manifests = ChartRendering.render().manifests();
        Map<String, Object> app = new LinkedHashMap<>(manifests.app());
        Map<String, Object> spec = new LinkedHashMap<>(Manifests.at(app, "spec"));
        spec.remove("selector");
        app.put("spec", spec);

        assertThatThrownBy(() -> KubernetesApiSchema.validate(app))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("selector");
    }

    @Test
    void anUnknownKindIsNotSilentlyAccepted() {
        assertThatThrownBy(() -> KubernetesApiSchema.validate(Map.of(
                        "apiVersion",
                        "v1",
                        "kind",
                        "Pod",
                        "metadata",
                        Map.of("name", "x"),
                        "spec",
                        Map.of("containers", List.of()))))
                .hasMessageContaining("no Kubernetes schema known for v1/Pod");
    }
}
