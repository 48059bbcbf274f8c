package dev.egress.discovery.registry.ydb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import dev.egress.discovery.registry.AnnouncementReader;
import dev.egress.discovery.registry.AnnouncementWriter;
import dev.egress.discovery.registry.RegistrySettings;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class YdbRegistryTest {

    private static final RegistrySettings SETTINGS = RegistrySettings.defaults("grpc://127.0.0.1:1/local");

    @Test
    void neitherClientCanBeMadeOutsideTheBuilderSoNoneRoutesOnUnverifiedAnnouncementsByDefault() {
        for (Class<?> client : new Class<?>[] {YdbRegistryWatcher.class, YdbBorderRegistry.class}) {
            assertThat(Arrays.stream(client.getDeclaredMethods())
                            .filter(m -> Modifier.isStatic(m.getModifiers()) && Modifier.isPublic(m.getModifiers()))
                            .map(Method::getName))
                    .as("public factories of %s", client.getSimpleName())
                    .isEmpty();
            assertThat(Arrays.stream(client.getDeclaredConstructors()).map(Constructor::getModifiers))
                    .as("constructors of %s", client.getSimpleName())
                    .noneMatch(Modifier::isPublic);
        }
    }

    @Test
    void theBuilderRefusesAMissingReaderOrWriter() {
        YdbRegistry.Builder builder = YdbRegistry.at(SETTINGS, new SimpleMeterRegistry());
        assertThatNullPointerException().isThrownBy(() -> builder.reader((AnnouncementReader) null));
        assertThatNullPointerException().isThrownBy(() -> builder.writer((AnnouncementWriter) null));
    }

    @Test
    void theBuilderRefusesMissingSettingsOrMeters() {
        assertThatNullPointerException().isThrownBy(() -> YdbRegistry.at(null, new SimpleMeterRegistry()));
        assertThatNullPointerException().isThrownBy(() -> YdbRegistry.at(SETTINGS, null));
    }
}
