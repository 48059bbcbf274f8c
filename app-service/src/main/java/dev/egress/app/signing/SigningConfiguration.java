package dev.egress.app.signing;

import dev.egress.app.tenants.TenantPolicyStore;
import dev.egress.discovery.files.WatchedFile;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires the signer over the signing secrets file, a {@link WatchedFile} on the shared poller: an invalid edit
 * keeps the last good secrets (and is counted in {@code egress.file.reloads{file=egress.signing.secrets-file}}),
 * and a file that is missing or invalid at startup stops the App.
 */
@Configuration(proxyBeanMethods = false)
class SigningConfiguration {

    /** A secrets file larger than this is refused: a few hundred tenants take a few tens of KiB. */
    static final long MAX_FILE_BYTES = 1024 * 1024;

    @Bean(destroyMethod = "close")
    SecretsSource signingSecrets(SigningProperties properties, MeterRegistry meters, Clock clock) {
        if (properties.secretsFile() == null) {
            return new SecretsSource(() -> SigningSecrets.NONE, null);
        }
        try {
            WatchedFile<SigningSecrets> watched = WatchedFile.of(
                            "egress.signing.secrets-file", properties.secretsFile(), SigningSecrets::parse)
                    .maxBytes(MAX_FILE_BYTES)
                    .meters(meters)
                    .clocks(clock, System::nanoTime)
                    .pollEvery(properties.reloadInterval());
            return new SecretsSource(watched, watched);
        } catch (RuntimeException e) {
            throw new IllegalStateException(
                    "egress.signing.secrets-file %s: %s".formatted(properties.secretsFile(), e.getMessage()), null);
        }
    }

    @Bean
    WebhookSigner webhookSigner(TenantPolicyStore tenants, SecretsSource secrets, Clock clock, MeterRegistry meters) {
        WebhookSigner signer = new WebhookSigner(tenants, secrets.current(), clock);
        // Computed when scraped: both files change on their own, and a scrape is rare next to deliveries.
        Gauge.builder(
                        "egress.signing.tenants.without.secret",
                        signer,
                        s -> s.tenantsWithoutSecret().size())
                .description("Tenants with signing: true but no secret in the signing secrets file (their deliveries"
                        + " are refused)")
                .register(meters);
        return signer;
    }

    /**
     * The current secrets, and the watch to stop with the context (none without a file).
     *
     * @param current the current secrets
     * @param watch   the watched file, or null
     */
    record SecretsSource(
            Supplier<SigningSecrets> current, @Nullable AutoCloseable watch) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            if (watch != null) {
                watch.close();
            }
        }
    }
}
