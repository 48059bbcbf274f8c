package dev.egress.border.testing;

/**
 * Property blocks that many {@code @SpringBootTest}s of the Border share, kept once so that a renamed
 * property or a new required one is one change. Each constant may hold several lines: Spring reads every
 * entry of {@code properties} as properties text.
 */
public final class BorderTestProperties {

    /**
     * A Border on loopback (its dedicated IPs 127.0.0.2-9, {@value #LOOPBACK_IPS}) without the trust chain
     * (plain HTTP, {@code insecure-local}), taking App's
     * {@link Tokens#INTERNAL} and advertising the local platform's first Border URL.
     */
    public static final String LOCAL = """
            egress.border.advertised-url=http://127.0.0.1:8181
            egress.border.allow-loopback-ips=true
            egress.security.insecure-local=true
            egress.tunnel.allowed-ports=1024-65535
            egress.security.internal-token=""" + Tokens.INTERNAL;

    /** Loopback addresses accepted as dedicated IPs, as on the local platform (refused by default). */
    public static final String LOOPBACK_IPS = "egress.border.allow-loopback-ips=true";

    /** The operator API, open to {@link Tokens#OPERATOR}. */
    public static final String OPERATOR = "egress.security.operator-token=" + Tokens.OPERATOR;

    /** Targets on 127.0.0.1 (the tests' sinks) allowed, on unprivileged ports only. */
    public static final String LOOPBACK_TARGETS = "egress.ssrf.allowed-ranges=127.0.0.1/32:1024-65535";

    private BorderTestProperties() {}
}
