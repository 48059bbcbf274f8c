package dev.egress.app.trust;

import dev.egress.discovery.trust.TlsProvider;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The TLS implementation of App's calls to Borders ({@code egress.tls.*}).
 *
 * @param provider {@code auto} (OpenSSL in native code where it loads, else the JDK), {@code openssl} (or refuse
 *                 to start) or {@code jdk}; the choice is logged at start
 */
@ConfigurationProperties("egress.tls")
public record TlsProperties(@DefaultValue("auto") TlsProvider provider) {}
