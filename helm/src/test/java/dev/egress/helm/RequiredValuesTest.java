package dev.egress.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * Values without a working default fail the render with a message saying what to set, instead of an
 * install whose pods never start (an unpublished image, a YDB address the cluster lacks) and a
 * `helm install --wait` that times out.
 */
class RequiredValuesTest {

    @Test
    void theChartsOwnDefaultsFailTheRenderAskingForTheYdbAddress() {
        assertThatThrownBy(ChartRendering.bare()::text).hasMessageContaining("registry.connectionString is required");
    }

    @Test
    void withoutAnAppImageTheRenderFailsAskingForIt() {
        ChartRendering.Render render = ChartRendering.bare()
                .set("registry.connectionString", "grpc://ydb:2135/Root/egress")
                .set("auth.existingSecret", "egress-tokens");

        assertThatThrownBy(render::text)
                .hasMessageContaining("app.image.repository is required")
                .hasMessageContaining("no image is published");
    }

    @Test
    void anImageWithoutTagOrDigestFailsTheRender() {
        assertThatThrownBy(ChartRendering.render().set("app.image.tag", "")::text)
                .hasMessageContaining("app.image.tag or app.image.digest is required");
        assertThatCode(ChartRendering.render()
                        .set("app.image.tag", "")
                        .set("app.image.digest", "sha256:" + "b".repeat(64))::text)
                .doesNotThrowAnyException();
    }

    @Test
    void theBorderImageIsRequiredOnlyWhenBordersAreConfigured() {
        assertThatCode(ChartRendering.render().set("border.image.repository", "")::text)
                .doesNotThrowAnyException();
        assertThatThrownBy(
                        ChartRendering.render().example("values-multus.yaml").set("border.image.repository", "")::text)
                .hasMessageContaining("border.image.repository is required");
    }

    @Test
    void noImageReferenceFallsBackToARegistryTheProjectDoesNotPublishTo() {
        String rendered = ChartRendering.render().text();

        assertThat(rendered).doesNotContain("docker.io/egress-platform");
    }
}
