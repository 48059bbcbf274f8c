package dev.egress.app.delivery.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class DestinationsTest {

    private static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");

    @Test
    void aDestinationIsSchemeHostAndPort() {
        assertThat(Destinations.of("https://Hooks.Example.com/in?x=1")).isEqualTo("https://hooks.example.com:443");
        assertThat(Destinations.of("http://127.0.0.1/a")).isEqualTo("http://127.0.0.1:80");
        assertThat(Destinations.of("http://127.0.0.1:8081/a")).isEqualTo("http://127.0.0.1:8081");
    }

    @Test
    void holdsAtMostTheLimitPerDestinationAndOthersAreUnaffected() {
        Destinations destinations = new Destinations(2);

        assertThat(destinations.acquire("http://a:80", T0)).isNull();
        assertThat(destinations.acquire("http://a:80", T0)).isNull();
        assertThat(destinations.acquire("http://a:80", T0)).as("full").isAfter(T0);
        assertThat(destinations.acquire("http://b:80", T0)).isNull();
        destinations.release("http://a:80", false, T0);
        assertThat(destinations.inFlight("http://a:80")).isEqualTo(1);
        assertThat(destinations.acquire("http://a:80", T0)).isNull();
    }

    @Test
    void aDestinationThatKeepsFailingBacksOffUntilASuccess() {
        Destinations destinations = new Destinations(10);
        for (int i = 0; i < Destinations.FAILURES_BEFORE_BACKOFF - 1; i++) {
            assertThat(destinations.acquire("http://a:80", T0)).isNull();
            destinations.release("http://a:80", true, T0);
        }
        assertThat(destinations.acquire("http://a:80", T0))
                .as("below the threshold")
                .isNull();
        destinations.release("http://a:80", true, T0);

        Instant until = destinations.acquire("http://a:80", T0);
        assertThat(until).isEqualTo(T0.plus(Duration.ofSeconds(1)));
        assertThat(destinations.acquire("http://b:80", T0))
                .as("another destination")
                .isNull();
        assertThat(destinations.acquire("http://a:80", until))
                .as("a probe after the back-off")
                .isNull();
        destinations.release("http://a:80", true, until);
        assertThat(destinations.acquire("http://a:80", until)).isEqualTo(until.plus(Duration.ofSeconds(2)));

        Instant later = until.plusSeconds(2);
        assertThat(destinations.acquire("http://a:80", later)).isNull();
        destinations.release("http://a:80", false, later);
        assertThat(destinations.acquire("http://a:80", later))
                .as("a success ends it")
                .isNull();
    }
}
