package dev.egress.app.trust;

import dev.egress.app.config.SecurityProperties;
import dev.egress.discovery.registry.AnnouncementReader;
import dev.egress.discovery.trust.AnnouncementVerifier;
import dev.egress.discovery.trust.Identity;
import dev.egress.discovery.trust.ReloadingFile;
import dev.egress.discovery.trust.SpiffeId;
import dev.egress.discovery.trust.TlsProvider;
import dev.egress.discovery.trust.TlsProviderProperties;
import dev.egress.discovery.trust.TrustBundle;
import dev.egress.discovery.trust.TrustFiles;
import dev.egress.discovery.trust.TrustMaterialException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires App's side of the trust chain (docs/architecture.md, "The trust chain"): loads {@code egress.trust.*}
 * or refuses to start without it (unless {@code insecure-local}); the announcement reader (signature
 * verification) used by the registry watcher; and the TLS of calls to Borders.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(TlsProviderProperties.class)
class TrustConfiguration {

    private static final Logger log = LoggerFactory.getLogger(TrustConfiguration.class);

    @Bean
    AppTrust appTrust(TrustProperties trust, SecurityProperties security, TlsProviderProperties tls) {
        TlsProvider.Choice provider = tls.provider().choose();
        TrustFiles files = trust.files();
        if (!files.anySet()) {
            if (!security.insecureLocal()) {
                throw new TrustMaterialException(files.names() + ": "
                        + "not set (expected: this App's PEM certificate chain naming spiffe://" + trust.domain()
                        + "/app/<name>, its PKCS#8 key, and the CA issuing Border certificates; "
                        + "or egress.security.insecure-local=true for local runs only)");
            }
            log.warn("egress.security.insecure-local: no trust material; UNSIGNED announcements are routed on and "
                    + "Borders are called without TLS");
            log.info("{}; unused: Borders are called without TLS (insecure-local)", provider.describe());
            return new AppTrust(Optional.empty(), trust.domain(), provider);
        }
        files.requireAll();
        ReloadingFile<Identity> identity = files.watchIdentity();
        ReloadingFile<TrustBundle> borderCa = files.watchPeerCa();
        List<SpiffeId> named = SpiffeId.of(identity.get().leaf());
        if (named.stream()
                .noneMatch(id ->
                        id.trustDomain().equals(trust.domain()) && id.role().equals(SpiffeId.APP))) {
            identity.close();
            borderCa.close();
            throw new TrustMaterialException("egress.trust.certificate: names %s (expected: spiffe://%s/app/<name>)"
                    .formatted(named.isEmpty() ? "no SPIFFE URI SAN" : named, trust.domain()));
        }
        log.info(
                "Trust: routing only on announcements signed by Borders of {}; calling Borders over mutual TLS as {}",
                trust.borderCa(),
                named);
        log.info("{}, for the mutual TLS of calls to Borders", provider.describe());
        return new AppTrust(Optional.of(new AppTrust.Material(identity, borderCa)), trust.domain(), provider);
    }

    @Bean
    AnnouncementReader announcementReader(AppTrust trust, TrustProperties properties, Clock clock) {
        return trust.material()
                .<AnnouncementReader>map(
                        m -> new AnnouncementVerifier(m.borderCa(), trust.domain(), clock, properties.maxClockSkew()))
                .orElseGet(AnnouncementVerifier::unverifiedForInsecureLocal);
    }
}
