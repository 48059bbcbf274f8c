package dev.egress.discovery.trust;

import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslProvider;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Which TLS implementation a service's Netty contexts use ({@code egress.tls.provider}): OpenSSL in native
 * code (BoringSSL from {@code netty-tcnative-boringssl-static}, in both fat jars) where it loads, else the JDK's
 * {@code SSLEngine}. Both run the same key and trust managers, so every trust check is the same either way;
 * the native one costs a fraction of the CPU per handshake and per record. {@link #JDK} is the escape hatch for a
 * platform whose native library misbehaves; {@link #OPENSSL} makes a missing one a start-up failure instead of a
 * silent fallback.
 */
public enum TlsProvider {
    /** OpenSSL when the native library loads, the JDK otherwise. */
    AUTO,
    /** OpenSSL or refuse to start. */
    OPENSSL,
    /** The JDK's {@code SSLEngine}, even where OpenSSL would load. */
    JDK;

    /**
     * The provider and why, as chosen on this machine.
     *
     * @param provider the Netty provider every context of the service is built with
     * @param reason   why, for the start-up log line
     */
    public record Choice(SslProvider provider, String reason) {

        /** Requires both. */
        public Choice {
            if (provider == null || reason == null || reason.isBlank()) {
                throw new IllegalArgumentException("provider and reason: required");
            }
        }

        /**
         * The start-up log line, one per service.
         *
         * @return {@code "TLS provider: OPENSSL (...)"}
         */
        public String describe() {
            return "TLS provider: " + provider + " (" + reason + ")";
        }
    }

    /**
     * Chooses with what this JVM can load.
     *
     * @return the choice
     * @throws TrustMaterialException for {@link #OPENSSL} when the native library does not load
     */
    public Choice choose() {
        return choose(OpenSsl.isAvailable(), OpenSsl.isAvailable() ? OpenSsl.versionString() : null, cause());
    }

    /**
     * Chooses, given whether OpenSSL loads (separate from {@link #choose()} so both outcomes can be tested on
     * any machine).
     *
     * @param available whether the native library loaded
     * @param version   its version string, when it did
     * @param cause     why it did not, when it did not
     * @return the choice
     * @throws TrustMaterialException for {@link #OPENSSL} when {@code available} is false
     */
    Choice choose(boolean available, @Nullable String version, @Nullable String cause) {
        String property = "egress.tls.provider=" + name().toLowerCase(Locale.ROOT);
        return switch (this) {
            case JDK -> new Choice(SslProvider.JDK, property);
            case OPENSSL -> {
                if (!available) {
                    throw new TrustMaterialException(property + ": OpenSSL (netty-tcnative) does not load here: "
                            + cause + " (expected: a linux-x86_64 glibc JVM, or egress.tls.provider=auto|jdk)");
                }
                yield new Choice(SslProvider.OPENSSL, version + " via netty-tcnative, " + property);
            }
            case AUTO ->
                available
                        ? new Choice(SslProvider.OPENSSL, version + " via netty-tcnative, " + property)
                        : new Choice(
                                SslProvider.JDK, property + ", but OpenSSL (netty-tcnative) does not load: " + cause);
        };
    }

    private static String cause() {
        Throwable cause = OpenSsl.unavailabilityCause();
        return cause == null ? "unknown" : cause.toString();
    }
}
