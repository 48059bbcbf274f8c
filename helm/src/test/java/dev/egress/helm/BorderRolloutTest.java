package dev.egress.helm;

import static dev.egress.helm.Manifests.at;
import static dev.egress.helm.Manifests.containers;
import static dev.egress.helm.Manifests.podSpec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The optional rollout hook: after an upgrade or rollback it restarts changed Borders one at a time, each
 * drained and Ready before the next, with only the permissions that takes.
 */
class BorderRolloutTest {

    private static final String NAME = ChartRendering.PREFIX + "-border-rollout";

    private static Manifests automatic;
    private static String notes;

    /**
     * The embedded Helm's template leaves hooks out of its output (the CLI prints them), so this renders a
     * copy of the chart whose hook annotations are renamed to {@code test.egress.dev/hook*}: the Job is then
     * an ordinary manifest, otherwise unchanged.
     */
    @BeforeAll
    static void renderWithTheHookVisible(@TempDir Path work) throws IOException {
        Path chart = ChartRendering.copyOfChart(work, null, null);
        Path template = chart.resolve("templates/border/rollout.yaml");
        Files.writeString(template, Files.readString(template).replace("helm.sh/hook", "test.egress.dev/hook"));
        // helm template leaves NOTES.txt out too: render it through tpl into a ConfigMap of the copy.
        Files.move(chart.resolve("templates/NOTES.txt"), chart.resolve("files/notes.txt"));
        Files.writeString(
                chart.resolve("templates/notes-for-test.yaml"),
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: notes\ndata:\n"
                        + "  notes: {{ tpl (.Files.Get \"files/notes.txt\") . | toJson }}\n");
        automatic = ChartRendering.render(chart)
                .example("values-hostnetwork.yaml")
                .set("border.rollout.automatic", true)
                .set("border.rollout.image.repository", "registry.example.com/tools/kubectl")
                .set("border.rollout.image.tag", "1.31.4")
                .manifests();
        notes = (String) Manifests.<Map<String, Object>>at(automatic.named("ConfigMap", "notes"), "data")
                .get("notes");
    }

    @Test
    void aHookJobAfterUpgradeAndRollbackRollsTheBordersOneAfterAnotherInTheirListedOrder() {
        Map<String, Object> job = automatic.named("Job", NAME);
        String script =
                Manifests.<List<String>>at(containers(job).get(0), "args").get(0);

        assertThat(Manifests.<Map<String, String>>at(job, "metadata", "annotations"))
                .containsEntry("test.egress.dev/hook", "post-upgrade,post-rollback")
                .containsEntry("test.egress.dev/hook-delete-policy", "before-hook-creation,hook-succeeded");
        assertThat(Manifests.<Integer>at(job, "spec", "backoffLimit")).isZero();
        assertThat(script)
                .containsSubsequence(
                        "roll " + ChartRendering.PREFIX + "-border-border-a",
                        "roll " + ChartRendering.PREFIX + "-border-border-b");
        assertThat(script)
                .contains(
                        "kubectl create --raw /api/v1/namespaces/$ns/pods/$pod/eviction",
                        "\"kind\":\"Eviction\"",
                        "{.status.updateRevision}",
                        "controller-revision-hash")
                .doesNotContain("delete pod");
        assertThat(script.indexOf("othersReady $sts && kubectl create --raw"))
                .as("the other Borders are checked Ready right before each eviction")
                .isPositive();
        assertThat(script.indexOf("/eviction"))
                .as("evicted, then gone (a new uid), then Ready")
                .isLessThan(script.indexOf("{.metadata.uid}')\" = \"$uid\""))
                .isLessThan(script.indexOf("until ready $pod"));
        assertThat(script)
                .contains("all=\" " + ChartRendering.PREFIX + "-border-border-a " + ChartRendering.PREFIX
                        + "-border-border-b\"");
    }

    @Test
    void theHooksDeadlineIsEveryBordersBudgetFromTheValuesAndTheNotesNameTheHelmTimeout() {
        Map<String, Object> job = automatic.named("Job", NAME);
        // (readyTimeoutSeconds 600 + terminationGracePeriodSeconds 60 + 30 + settleSeconds 5) x 2 Borders
        assertThat(Manifests.<Integer>at(job, "spec", "activeDeadlineSeconds")).isEqualTo(1390);

        assertThat(notes).contains("--timeout 1450s");
    }

    @Test
    void theHookMayOnlyReadStatefulSetsAndPodsAndEvictPods() {
        Map<String, Object> role = automatic.named("Role", NAME);
        Map<String, Object> binding = automatic.named("RoleBinding", NAME);
        Map<String, Object> job = automatic.named("Job", NAME);

        assertThat(Manifests.<List<Map<String, Object>>>at(role, "rules"))
                .containsExactlyInAnyOrder(
                        Map.of(
                                "apiGroups",
                                List.of("apps"),
                                "resources",
                                List.of("statefulsets"),
                                "verbs",
                                List.of("get")),
                        Map.of(
                                "apiGroups",
                                List.of(""),
                                "resources",
                                List.of("pods"),
                                "verbs",
                                List.of("get", "list", "watch")),
                        Map.of(
                                "apiGroups",
                                List.of(""),
                                "resources",
                                List.of("pods/eviction"),
                                "verbs",
                                List.of("create")));
        assertThat(Manifests.<List<Map<String, Object>>>at(binding, "subjects"))
                .singleElement()
                .satisfies(s -> assertThat(s).containsEntry("name", at(podSpec(job), "serviceAccountName")));
        assertThat(automatic.objects()).allSatisfy(KubernetesApiSchema::validate);
    }

    @Test
    void noHookIsRenderedUnlessAsked() {
        Manifests manual =
                ChartRendering.render().example("values-hostnetwork.yaml").manifests();

        assertThat(manual.ofKind("Job")).isEmpty();
        assertThat(manual.ofKind("Role")).isEmpty();
    }

    @Test
    void theHookNeedsAnImageAndBordersThatDoNotRestartByThemselves() {
        assertThatThrownBy(ChartRendering.render()
                        .example("values-hostnetwork.yaml")
                        .set("border.rollout.automatic", true)::text)
                .hasMessageContaining("border.rollout.image.repository is required");
        assertThatThrownBy(ChartRendering.render()
                        .example("values-hostnetwork.yaml")
                        .set("border.rollout.automatic", true)
                        .set("border.updateStrategy", "RollingUpdate")
                        .set("border.rollout.image.repository", "kubectl")
                        .set("border.rollout.image.tag", "v1")::text)
                .hasMessageContaining("border.rollout.automatic needs border.updateStrategy=OnDelete");
    }

    @Test
    void theReleaseNotesStateTheSupportedVersionSkew() {
        assertThat(notes)
                .contains("across one release of skew, in either order")
                .contains("skipping one is not supported")
                .contains("\"Upgrades and version skew\"");
    }
}
