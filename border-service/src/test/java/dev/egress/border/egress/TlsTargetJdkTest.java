package dev.egress.border.egress;

import dev.egress.border.testing.BorderTestProperties;
import dev.egress.border.testing.LocalBorderTest;

/**
 * The https-target checks of {@link TlsTargetTest} (certificate and host name verified, extra CAs trusted, plain
 * http kept) on the JDK's {@code SSLEngine}, forced by {@code egress.tls.provider=jdk}; the parent runs them on
 * OpenSSL where netty-tcnative loads.
 */
@LocalBorderTest({
    "egress.border.id=border-tls",
    "egress.border.ips=127.0.0.2,127.0.0.3",
    "egress.tls.provider=jdk",
    BorderTestProperties.LOCAL,
    BorderTestProperties.LOOPBACK_TARGETS
})
class TlsTargetJdkTest extends TlsTargetTest {}
