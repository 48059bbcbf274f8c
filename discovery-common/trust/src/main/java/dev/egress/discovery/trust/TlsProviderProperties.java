package dev.egress.discovery.trust;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The TLS implementation both services build their Netty contexts with ({@code egress.tls.provider}), bound once
 * here for App and the Border alike: App's calls to Borders; the Border's server and its clients to https targets.
 * The rest of {@code egress.tls.*} (the Border's trust in its targets) is bound by the Border's egress package.
 *
 * @param provider {@code auto} (OpenSSL in native code where it loads, else the JDK), {@code openssl} (or refuse
 *                 to start) or {@code jdk}; the choice is logged at start
 */
@ConfigurationProperties("egress.tls")
public record TlsProviderProperties(@DefaultValue("auto") TlsProvider provider) {}
