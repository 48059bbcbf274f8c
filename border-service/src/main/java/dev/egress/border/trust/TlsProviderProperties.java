package dev.egress.border.trust;

import dev.egress.discovery.trust.TlsProvider;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The TLS implementation of the Border's server and of its clients to https targets ({@code egress.tls.provider};
 * the rest of {@code egress.tls.*}, the targets' trust, is bound by the egress package).
 *
 * @param provider {@code auto} (OpenSSL in native code where it loads, else the JDK), {@code openssl} (or refuse
 *                 to start) or {@code jdk}; the choice is logged at start
 */
@ConfigurationProperties("egress.tls")
public record TlsProviderProperties(@DefaultValue("auto") TlsProvider provider) {}
