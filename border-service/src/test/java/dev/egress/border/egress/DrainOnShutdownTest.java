package dev.egress.border.egress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.border.BorderApplication;
import dev.egress.border.testing.BorderTestProperties;
import dev.egress.border.testing.InMemoryBorderRegistry;
import dev.egress.border.testing.InMemoryRegistryConfiguration;
import dev.egress.border.testing.Tokens;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.web.forward.ForwardRequest;
import dev.egress.discovery.web.forward.ForwardResponse;
import dev.egress.discovery.web.testing.RecordingSink;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientResponseException;
import reactor.core.publisher.Mono;

/** Shutdown order with a registry double: DRAINING published, new calls refused, in-flight finished, slot released. */
class DrainOnShutdownTest {

    RecordingSink sink;
    ConfigurableApplicationContext border;

    @BeforeEach
    void start() throws Exception {
        sink = RecordingSink.start();
        border = new SpringApplicationBuilder(BorderApplication.class, InMemoryRegistryConfiguration.class)
                .run(
                        "--server.port=0",
                        "--egress.border.id=border-drain",
                        "--egress.border.ips=127.0.0.8",
                        "--" + BorderTestProperties.LOOPBACK_IPS,
                        "--egress.border.advertised-url=http://127.0.0.1:8181",
                        "--egress.security.internal-token=" + Tokens.INTERNAL,
                        "--egress.security.insecure-local=true",
                        "--egress.ssrf.allowed-ranges=127.0.0.1/32:1024-65535",
                        "--egress.border.drain-timeout=30s");
    }

    @AfterEach
    void stop() {
        if (border.isActive()) {
            border.close();
        }
        sink.close();
    }

    @Test
    void publishesDrainingThenLetsInFlightCallsFinishThenReleasesTheSlot() {
        InMemoryBorderRegistry registry = border.getBean(InMemoryBorderRegistry.class);
        Admission admission = border.getBean(Admission.class);
        WebClient client = WebClient.create("http://127.0.0.1:"
                + ((WebServerApplicationContext) border).getWebServer().getPort());
        sink.reply(new RecordingSink.Reply(200, "finished", Duration.ofSeconds(3), Map.of()));

        CompletableFuture<ForwardResponse> inFlight = forward(client).toFuture();
        await().atMost(Duration.ofSeconds(30)).until(() -> admission.total() == 1);
        CompletableFuture<Void> shutdown = CompletableFuture.runAsync(border::close);
        await().atMost(Duration.ofSeconds(30)).until(admission::draining);

        // Still listening while draining, but taking nothing new.
        assertThat(forward(client)
                        .map(r -> 200)
                        .onErrorResume(
                                WebClientResponseException.class,
                                e -> Mono.just(e.getStatusCode().value()))
                        .block(Duration.ofSeconds(30)))
                .isEqualTo(409);

        assertThat(inFlight.join().body()).isEqualTo("finished");
        shutdown.join();
        List<InMemoryBorderRegistry.Event> events = registry.events();
        assertThat(events).hasSize(3);
        assertThat(((InMemoryBorderRegistry.Published) events.get(0))
                        .announcement()
                        .statusOf(EgressIp.of("127.0.0.8")))
                .contains(IpStatus.ACTIVE);
        assertThat(((InMemoryBorderRegistry.Published) events.get(1))
                        .announcement()
                        .statusOf(EgressIp.of("127.0.0.8")))
                .contains(IpStatus.DRAINING);
        assertThat(events.get(2)).isInstanceOf(InMemoryBorderRegistry.Released.class);
    }

    private Mono<ForwardResponse> forward(WebClient client) {
        return client.post()
                .uri("/internal/v1/egress")
                .header("Authorization", "Bearer " + Tokens.INTERNAL)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(new ForwardRequest("d", "127.0.0.8", sink.baseUri() + "/", "POST", Map.of(), "x"))
                .retrieve()
                .bodyToMono(ForwardResponse.class);
    }
}
