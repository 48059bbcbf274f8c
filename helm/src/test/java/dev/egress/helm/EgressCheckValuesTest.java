package dev.egress.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * {@code border.egressCheck.*} turns the Borders' egress identity check on (docs/kubernetes.md, "AWS", step 7):
 * every Border gets the URL and interval; without a URL nothing is set, so the Borders behave as before.
 */
class EgressCheckValuesTest {

    @Test
    void aUrlReachesEveryBorderWithItsInterval() {
        Manifests manifests = ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .set("border.egressCheck.url", "https://checkip.amazonaws.com")
                .set("border.egressCheck.interval", "30s")
                .manifests();

        assertThat(Manifests.env(manifests.border("border-a")))
                .containsEntry("EGRESS_BORDER_EGRESSCHECK_URL", "https://checkip.amazonaws.com")
                .containsEntry("EGRESS_BORDER_EGRESSCHECK_INTERVAL", "30s");
    }

    @Test
    void withoutAUrlTheCheckStaysOff() {
        Manifests manifests =
                ChartRendering.render().example("values-hostnetwork.yaml").manifests();

        assertThat(Manifests.env(manifests.border("border-a")))
                .doesNotContainKeys("EGRESS_BORDER_EGRESSCHECK_URL", "EGRESS_BORDER_EGRESSCHECK_INTERVAL");
    }

    @Test
    void theSchemaRefusesAUrlThatIsNotHttp() {
        ChartRendering.Render render = ChartRendering.render()
                .example("values-hostnetwork.yaml")
                .set("border.egressCheck.url", "ftp://checkip.example");

        assertThatThrownBy(render::text).hasMessageContaining("schema");
    }

    @Test
    void theAwsExampleTurnsTheIdentityCheckOnForEveryBorder() {
        Manifests manifests = ChartRendering.bare().example("values-aws.yaml").manifests();

        assertThat(manifests.ofKind("StatefulSet").toList())
                .isNotEmpty()
                .allSatisfy(border -> assertThat(Manifests.env(border))
                        .containsEntry("EGRESS_BORDER_EGRESSCHECK_URL", "https://checkip.amazonaws.com"));
    }
}
