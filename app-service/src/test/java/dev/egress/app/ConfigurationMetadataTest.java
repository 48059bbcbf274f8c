package dev.egress.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.discovery.web.testing.ConfigurationMetadata;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * IDEs complete and describe every `egress.*` property of this service (the configuration processor's
 * metadata), and docs/configuration/app.md documents exactly those: a property added to a record without a
 * row on the page, or a row naming a property no record binds, fails here.
 */
class ConfigurationMetadataTest {

    private static final Path PAGE = Path.of("..", "docs", "configuration", "app.md");

    @Test
    void metadataDescribesEveryBoundProperty() {
        Set<String> metadata = ConfigurationMetadata.egressProperties();
        assertThat(metadata).contains("egress.registry.connection-string", "egress.security.internal-token");
    }

    @Test
    void thePageDocumentsExactlyTheBoundProperties() {
        assertThat(ConfigurationMetadata.documentedProperties(PAGE))
                .containsExactlyInAnyOrderElementsOf(ConfigurationMetadata.egressProperties());
    }
}
