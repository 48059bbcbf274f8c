package dev.egress.discovery.web.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import reactor.netty.http.server.HttpServer;

/** {@code egress.server.*} as both services bind it: one name per deadline, the old spellings still working. */
@SuppressWarnings("deprecation") // the deprecated spellings are part of what is tested
class ServerDeadlinesTest {

    private static ServerDeadlines bind(Map<String, String> values) {
        return new Binder(new MapConfigurationPropertySource(values))
                .bindOrCreate("egress.server", ServerDeadlines.class);
    }

    @Test
    void defaultsToTenSecondsForHeadersAndThirtyForTheBodyAndLeavesIdleToSpringBoot() {
        ServerDeadlines deadlines = bind(Map.of());
        assertThat(deadlines.requestHeaderTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(deadlines.requestBodyTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(deadlines.requestTimeout()).isNull();
        assertThat(deadlines.idleTimeout()).isNull();
        assertThat(ServerDeadlines.defaults()).isEqualTo(deadlines);
    }

    @Test
    void bindsTheBodyDeadlineUnderItsName() {
        assertThat(bind(Map.of("egress.server.request-body-timeout", "5s")).requestBodyTimeout())
                .isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void takesTheBordersOldSpellingOfTheBodyDeadline() {
        ServerDeadlines deadlines = bind(Map.of("egress.server.request-timeout", "7s"));
        assertThat(deadlines.requestBodyTimeout()).isEqualTo(Duration.ofSeconds(7));
        assertThat(deadlines.requestTimeout()).isEqualTo(Duration.ofSeconds(7));
    }

    @Test
    void refusesBothSpellingsOfTheBodyDeadlineAtOnce() {
        assertThatThrownBy(() ->
                        bind(Map.of("egress.server.request-timeout", "7s", "egress.server.request-body-timeout", "5s")))
                .hasStackTraceContaining(
                        "egress.server.request-timeout: PT7S (expected: unset; it is the deprecated spelling of"
                                + " egress.server.request-body-timeout, which is set too)");
    }

    @Test
    void refusesADeadlineThatIsNotPositiveNamingIt() {
        assertThatThrownBy(() -> bind(Map.of("egress.server.request-header-timeout", "0s")))
                .hasStackTraceContaining("egress.server.request-header-timeout: PT0S (expected: a positive duration)");
        assertThatThrownBy(() -> bind(Map.of("egress.server.request-body-timeout", "-1s")))
                .hasStackTraceContaining("egress.server.request-body-timeout: PT-1S");
        assertThatThrownBy(() -> bind(Map.of("egress.server.request-timeout", "0s")))
                .hasStackTraceContaining("egress.server.request-timeout: PT0S");
        assertThatThrownBy(() -> bind(Map.of("egress.server.idle-timeout", "0s")))
                .hasStackTraceContaining("egress.server.idle-timeout: PT0S");
        assertThatThrownBy(() -> new ServerDeadlines(null, null, null, null))
                .hasMessage("egress.server.request-header-timeout: null (expected: a positive duration)");
    }

    @Test
    void putsTheBodyDeadlineOnTheListenerAndTheIdleOneOnlyWhenSet() {
        HttpServer plain = HttpServer.create().idleTimeout(Duration.ofSeconds(60));
        HttpServer defaults = ServerDeadlines.defaults().applyTo(plain);
        assertThat(defaults.configuration().requestTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(defaults.configuration().idleTimeout()).isEqualTo(Duration.ofSeconds(60));

        HttpServer overridden = bind(Map.of(
                        "egress.server.request-body-timeout", "4s", "egress.server.idle-timeout", "120s"))
                .applyTo(plain);
        assertThat(overridden.configuration().requestTimeout()).isEqualTo(Duration.ofSeconds(4));
        assertThat(overridden.configuration().idleTimeout()).isEqualTo(Duration.ofSeconds(120));
    }
}
