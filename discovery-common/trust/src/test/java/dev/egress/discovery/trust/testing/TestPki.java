package dev.egress.discovery.trust.testing;

import dev.egress.discovery.trust.Identity;
import dev.egress.discovery.trust.IdentityKeyManager;
import dev.egress.discovery.trust.Pem;
import dev.egress.discovery.trust.ReloadingFile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * A throwaway certificate authority for tests, made by the JDK's own {@code keytool} in real processes
 * (as {@code ./run-local.sh} does): a CA, and identities issued by it with a SPIFFE URI SAN, written as
 * the PEM files the services read ({@code egress.trust.*}). Nothing is checked in; every file lives in a
 * temporary directory.
 */
public final class TestPki {

    private static final String PASSWORD = "test-only";
    private static final AtomicInteger SERIAL = new AtomicInteger();

    private final Path dir;
    private final Path caStore;
    private final Path caPem;

    /**
     * An issued identity.
     *
     * @param certificate PEM chain, leaf first then the CA ({@code egress.trust.certificate})
     * @param privateKey  PEM PKCS#8 key ({@code egress.trust.private-key})
     */
    public record Issued(Path certificate, Path privateKey) {

        /**
         * Replaces this identity's files with another's (a rotation as a Secret update does it).
         *
         * @param other the new identity
         */
        public void replaceWith(Issued other) {
            try {
                Files.copy(other.privateKey(), privateKey, StandardCopyOption.REPLACE_EXISTING);
                Files.copy(other.certificate(), certificate, StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private TestPki(Path dir, Path caStore, Path caPem) {
        this.dir = dir;
        this.caStore = caStore;
        this.caPem = caPem;
    }

    /**
     * Creates a CA.
     *
     * @param name the CA's common name
     * @return the CA
     */
    public static TestPki create(String name) {
        try {
            Path dir = Files.createTempDirectory("egress-pki-");
            Path store = dir.resolve("ca.p12");
            Path pem = dir.resolve("ca.pem");
            keytool(
                    "-genkeypair",
                    "-alias",
                    "ca",
                    "-keyalg",
                    "EC",
                    "-groupname",
                    "secp256r1",
                    "-validity",
                    "3",
                    "-dname",
                    "CN=" + name,
                    "-ext",
                    "bc:c=ca:true",
                    "-ext",
                    "ku:c=keyCertSign,cRLSign",
                    "-storetype",
                    "PKCS12",
                    "-keystore",
                    store.toString(),
                    "-storepass",
                    PASSWORD);
            keytool(
                    "-exportcert",
                    "-rfc",
                    "-alias",
                    "ca",
                    "-keystore",
                    store.toString(),
                    "-storepass",
                    PASSWORD,
                    "-file",
                    pem.toString());
            return new TestPki(dir, store, pem);
        } catch (IOException e) {
            throw new IllegalStateException("could not create test CA " + name, e);
        }
    }

    /**
     * The CA certificate as PEM ({@code egress.trust.border-ca} / {@code egress.trust.app-ca}).
     *
     * @return the file
     */
    public Path caPem() {
        return caPem;
    }

    /**
     * Issues a Border identity {@code spiffe://egress.local/border/<id>} that authorises the given IPs (IP
     * SANs: App routes an announced IP only if the signer's certificate names it).
     *
     * @param borderId the Border id
     * @param ips      the IPs (and bind addresses) the Border may announce
     * @return the identity
     */
    public Issued border(String borderId, String... ips) {
        // Also 127.0.0.1 and localhost, so that ordinary https clients (curl, a test's HttpClient) can
        // verify the host name of a local Border; App checks the SPIFFE id instead.
        StringBuilder names = new StringBuilder(",ip:127.0.0.1,dns:localhost");
        for (String ip : ips) {
            names.append(",ip:").append(ip);
        }
        return issue("spiffe://egress.local/border/" + borderId, names.toString());
    }

    /**
     * Issues a Border identity as {@link #border(String, String...)} does.
     *
     * @param borderId the Border id
     * @param ips      the IPs the Border may announce
     * @return the identity
     */
    public Issued border(String borderId, Collection<String> ips) {
        return border(borderId, ips.toArray(String[]::new));
    }

    /**
     * Issues an App identity {@code spiffe://egress.local/app/<name>}.
     *
     * @param name the App name
     * @return the identity
     */
    public Issued app(String name) {
        return issue("spiffe://egress.local/app/" + name);
    }

    /**
     * Issues an identity naming one URI (client and server use).
     *
     * @param uri the URI SAN
     * @return the identity
     */
    public Issued issue(String uri) {
        return issue(uri, "");
    }

    private Issued issue(String uri, String moreNames) {
        int serial = SERIAL.incrementAndGet();
        try {
            Path leafStore = dir.resolve("leaf-" + serial + ".p12");
            Path csr = dir.resolve("leaf-" + serial + ".csr");
            Path leafPem = dir.resolve("leaf-" + serial + ".pem");
            Path chainPem = dir.resolve("chain-" + serial + ".pem");
            Path keyPem = dir.resolve("key-" + serial + ".pem");
            keytool(
                    "-genkeypair",
                    "-alias",
                    "leaf",
                    "-keyalg",
                    "EC",
                    "-groupname",
                    "secp256r1",
                    "-validity",
                    "2",
                    "-dname",
                    "CN=leaf-" + serial,
                    "-storetype",
                    "PKCS12",
                    "-keystore",
                    leafStore.toString(),
                    "-storepass",
                    PASSWORD);
            keytool(
                    "-certreq",
                    "-alias",
                    "leaf",
                    "-keystore",
                    leafStore.toString(),
                    "-storepass",
                    PASSWORD,
                    "-file",
                    csr.toString());
            keytool(
                    "-gencert",
                    "-rfc",
                    "-alias",
                    "ca",
                    "-keystore",
                    caStore.toString(),
                    "-storepass",
                    PASSWORD,
                    "-infile",
                    csr.toString(),
                    "-outfile",
                    leafPem.toString(),
                    "-validity",
                    "2",
                    "-ext",
                    "san=uri:" + uri + moreNames,
                    "-ext",
                    "eku=serverAuth,clientAuth",
                    "-ext",
                    "ku:c=digitalSignature");
            Files.writeString(chainPem, Files.readString(leafPem) + Files.readString(caPem));
            KeyStore keys = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(leafStore)) {
                keys.load(in, PASSWORD.toCharArray());
            }
            Files.writeString(
                    keyPem,
                    "-----BEGIN PRIVATE KEY-----\n"
                            + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                                    .encodeToString(keys.getKey("leaf", PASSWORD.toCharArray())
                                            .getEncoded())
                            + "\n-----END PRIVATE KEY-----\n");
            // Copies, so that a test can rotate these files without touching the originals.
            Path certificate = Files.createTempFile(dir, "cert-", ".pem");
            Path privateKey = Files.createTempFile(dir, "key-", ".pem");
            Files.copy(chainPem, certificate, StandardCopyOption.REPLACE_EXISTING);
            Files.copy(keyPem, privateKey, StandardCopyOption.REPLACE_EXISTING);
            return new Issued(certificate, privateKey);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("could not issue a test certificate for " + uri, e);
        }
    }

    /**
     * Loads an issued identity.
     *
     * @param issued the files
     * @return the identity
     */
    public static Identity identity(Issued issued) {
        try (ReloadingFile<Identity> file = ReloadingFile.identity(
                issued.certificate(),
                issued.privateKey(),
                "egress.trust.certificate",
                "egress.trust.private-key",
                Duration.ofHours(1))) {
            return file.get();
        }
    }

    /**
     * Issues a server certificate for App's own listener ({@code server.ssl.bundle}): an App identity that also
     * names 127.0.0.1 and localhost, so that an ordinary https client verifies the host name.
     *
     * @param name the App name
     * @return the identity
     */
    public Issued appServer(String name) {
        return issue("spiffe://egress.local/app/" + name, ",ip:127.0.0.1,dns:localhost");
    }

    /**
     * A JDK TLS context presenting an identity (a server, or a client certificate) and trusting CAs.
     *
     * @param identity the identity to present, or null for none
     * @param trusted  PEM CA files to trust; none means the JDK defaults
     * @return the context
     */
    public static SSLContext context(Issued identity, Path... trusted) {
        try {
            KeyManager[] keys =
                    identity == null ? null : new KeyManager[] {new IdentityKeyManager(() -> identity(identity))};
            TrustManager[] trust = null;
            if (trusted.length > 0) {
                KeyStore anchors = KeyStore.getInstance("PKCS12");
                anchors.load(null, null);
                int i = 0;
                for (Path ca : trusted) {
                    for (var certificate : Pem.certificates(Files.readAllBytes(ca), ca.toString())) {
                        anchors.setCertificateEntry("ca-" + i++, certificate);
                    }
                }
                TrustManagerFactory factory =
                        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                factory.init(anchors);
                trust = factory.getTrustManagers();
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys, trust, null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("could not build a test TLS context", e);
        }
    }

    /**
     * Runs the JDK's {@code keytool}; shared with {@link TestCertificates}.
     *
     * @param args its arguments, the command first
     * @throws IOException if it fails or times out
     */
    static void keytool(String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String output = new String(process.getInputStream().readAllBytes());
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IOException("keytool " + args[0] + " failed: " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
