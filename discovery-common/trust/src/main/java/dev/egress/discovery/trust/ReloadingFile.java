package dev.egress.discovery.trust;

import dev.egress.discovery.files.WatchedFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Trust material read from files and re-read when they change, without a restart (certificates are
 * rotated by replacing files: a Kubernetes Secret volume, cert-manager, a cron job). A {@link WatchedFile}
 * polled every check interval, with its one change rule (metadata first, then the bytes, so an atomic symlink
 * swap and a coarse mtime are both noticed). A change that does not parse (a half-written file, a key that
 * does not match its certificate) is logged and ignored: the last good material stays in use until a good one
 * appears. {@link #get()} is a volatile read, cheap enough for every TLS handshake.
 *
 * @param <T> the parsed material ({@link Identity} or {@link TrustBundle})
 */
public final class ReloadingFile<T> implements Supplier<T>, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReloadingFile.class);
    /** How often files are compared when the caller does not say. */
    public static final Duration DEFAULT_CHECK_INTERVAL = Duration.ofSeconds(2);

    private final WatchedFile<T> watched;

    private ReloadingFile(String what, List<Path> files, Function<List<byte[]>, T> parser, Duration checkEvery) {
        try {
            this.watched = WatchedFile.of(what, files, parser).pollEvery(checkEvery);
        } catch (UncheckedIOException e) {
            throw new TrustMaterialException(what + ": " + e.getMessage() + " (" + e.getCause() + ")");
        }
        watched.onChange(next -> log.info("Reloaded {}: {}", what, next));
    }

    /**
     * Loads an identity (certificate chain and matching private key) and keeps it current.
     *
     * @param certificate     PEM chain, leaf first
     * @param privateKey      PEM PKCS#8 key of the leaf
     * @param certificateName the property naming the certificate file, for messages
     * @param keyName         the property naming the key file, for messages
     * @param checkEvery      how often the files are compared
     * @return the loaded identity
     * @throws TrustMaterialException if the files are missing, unreadable, or the key does not match
     */
    public static ReloadingFile<Identity> identity(
            Path certificate, Path privateKey, String certificateName, String keyName, Duration checkEvery) {
        String certWhat = certificateName + " (" + certificate + ")";
        String keyWhat = keyName + " (" + privateKey + ")";
        return new ReloadingFile<>(
                certificateName + " / " + keyName,
                List.of(certificate, privateKey),
                bytes -> {
                    Identity identity = new Identity(
                            Pem.certificates(bytes.get(0), certWhat), Pem.privateKey(bytes.get(1), keyWhat));
                    requireMatchingKey(identity, certWhat, keyWhat);
                    return identity;
                },
                checkEvery);
    }

    /**
     * Loads a CA bundle and keeps it current.
     *
     * @param bundle     PEM CA certificates
     * @param name       the property naming the file, for messages
     * @param checkEvery how often the file is compared
     * @return the loaded bundle
     * @throws TrustMaterialException if the file is missing or holds no readable certificate
     */
    public static ReloadingFile<TrustBundle> bundle(Path bundle, String name, Duration checkEvery) {
        String what = name + " (" + bundle + ")";
        return new ReloadingFile<>(
                name, List.of(bundle), bytes -> new TrustBundle(Pem.certificates(bytes.get(0), what)), checkEvery);
    }

    /**
     * The material in use.
     *
     * @return the last good material
     */
    @Override
    public T get() {
        return watched.get();
    }

    /**
     * Registers a listener for new material (called on the checker thread after the swap).
     *
     * @param listener receives each new material
     */
    public void onChange(Consumer<T> listener) {
        watched.onChange(listener);
    }

    /**
     * Compares the files now and swaps in changed material that parses.
     *
     * @return true if the material changed
     */
    public boolean refresh() {
        return watched.refresh();
    }

    /** A key from another rotation than its certificate would fail every handshake: refuse it here. */
    private static void requireMatchingKey(Identity identity, String certWhat, String keyWhat) {
        PrivateKey key = identity.key();
        X509Certificate leaf = identity.leaf();
        byte[] probe = "egress-key-check".getBytes(StandardCharsets.US_ASCII);
        try {
            String algorithm = Signatures.algorithmFor(key);
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(leaf.getPublicKey());
            verifier.update(probe);
            if (!verifier.verify(signature)) {
                throw new TrustMaterialException(keyWhat + " does not match the first certificate of " + certWhat);
            }
        } catch (GeneralSecurityException e) {
            throw new TrustMaterialException(
                    keyWhat + " does not match the first certificate of " + certWhat + " (" + e.getMessage() + ")");
        }
    }

    /** Stops comparing the files; {@link #get()} keeps answering the last material. */
    @Override
    public void close() {
        watched.close();
    }
}
