package dev.egress.app.proxy;

import dev.egress.discovery.files.WatchedFile;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import javax.net.ssl.SSLException;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.core.env.Environment;

/**
 * The proxy listener's TLS material ({@code egress.proxy.ssl-bundle}), read for each new connection. A PEM bundle
 * whose key store names files ({@code spring.ssl.bundle.pem.<name>.keystore.certificate} and {@code .private-key},
 * unencrypted) is watched with the house's {@link WatchedFile}: a rotated certificate serves every new connection
 * without a restart, and a half-written pair keeps the last good one. Any other bundle (a key store file, a
 * classpath resource, an encrypted key) is read once at start.
 */
final class ProxyTls implements Supplier<SslContext>, AutoCloseable {

    /** How often watched files are checked. */
    static final Duration CHECK_EVERY = Duration.ofSeconds(10);

    private final Supplier<SslContext> current;
    private final @Nullable WatchedFile<SslContext> watched;

    private ProxyTls(Supplier<SslContext> current, @Nullable WatchedFile<SslContext> watched) {
        this.current = current;
        this.watched = watched;
    }

    /**
     * The material of a PEM certificate and key, watched.
     *
     * @param certificate the certificate chain (PEM)
     * @param privateKey  its unencrypted private key (PEM)
     * @param every       how often the files are checked
     * @return the material, whose first read must succeed
     */
    static ProxyTls watching(Path certificate, Path privateKey, Duration every) {
        WatchedFile<SslContext> files = WatchedFile.of(
                        "egress.proxy.ssl-bundle", List.of(certificate, privateKey), ProxyTls::serverContext)
                .pollEvery(every);
        return new ProxyTls(files, files);
    }

    /**
     * The material of the configured bundle: watched when it is a PEM bundle of files, else read once.
     *
     * @param name        {@code egress.proxy.ssl-bundle}
     * @param bundles     Spring's SSL bundles
     * @param environment where the bundle's file locations are read
     * @return the material
     * @throws SSLException when the bundle cannot make a server context
     */
    static ProxyTls of(String name, SslBundles bundles, Environment environment) throws SSLException {
        String prefix = "spring.ssl.bundle.pem." + name + ".keystore.";
        Binder binder = Binder.get(environment);
        Path certificate =
                file(binder.bind(prefix + "certificate", String.class).orElse(null));
        Path privateKey = file(binder.bind(prefix + "private-key", String.class).orElse(null));
        boolean encrypted =
                binder.bind(prefix + "private-key-password", String.class).isBound();
        if (certificate != null && privateKey != null && !encrypted) {
            return watching(certificate, privateKey, CHECK_EVERY);
        }
        SslBundle bundle = bundles.getBundle(name);
        SslContext fixed = SslContextBuilder.forServer(bundle.getManagers().getKeyManagerFactory())
                .build();
        return new ProxyTls(() -> fixed, null);
    }

    /** A {@code file:} location or a plain path; null for anything else (a classpath resource, a URL). */
    private static @Nullable Path file(@Nullable String location) {
        if (location == null || location.isBlank()) {
            return null;
        }
        if (location.startsWith("file:")) {
            return Path.of(location.substring("file:".length()));
        }
        return location.indexOf(':') > 1 ? null : Path.of(location);
    }

    private static SslContext serverContext(List<byte[]> pem) {
        try {
            return SslContextBuilder.forServer(
                            new ByteArrayInputStream(pem.get(0)), new ByteArrayInputStream(pem.get(1)))
                    .build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new IllegalArgumentException("not a PEM certificate and its private key: " + e.getMessage(), e);
        }
    }

    @Override
    public SslContext get() {
        return current.get();
    }

    @Override
    public void close() {
        if (watched != null) {
            watched.close();
        }
    }
}
