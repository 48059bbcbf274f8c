package dev.egress.discovery.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The status lists that messages show and the names operators type come from the enum alone. */
class IpStatusTest {

    @Test
    void choicesNameEveryStatusInDeclarationOrder() {
        assertThat(IpStatus.choices()).isEqualTo("ACTIVE, DRAINING or DISABLED");
        String joined = String.join(
                ", ", Arrays.stream(IpStatus.values()).map(Enum::name).toList());
        int last = joined.lastIndexOf(", ");
        assertThat(IpStatus.choices()).isEqualTo(joined.substring(0, last) + " or " + joined.substring(last + 2));
    }

    @Test
    void everyStatusIsFoundByItsNameInAnyCase() {
        for (IpStatus status : IpStatus.values()) {
            assertThat(IpStatus.fromName(status.name())).contains(status);
            assertThat(IpStatus.fromName(" " + status.name().toLowerCase(Locale.ROOT) + "\t"))
                    .contains(status);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "UP", "ACTIVE,", "DRAIN"})
    void anythingElseNamesNoStatus(String text) {
        assertThat(IpStatus.fromName(text)).isEmpty();
        assertThat(IpStatus.fromName(null)).isEmpty();
    }
}
