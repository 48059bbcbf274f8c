package dev.egress.discovery.trust.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * Self-signed certificates for https test targets, made by the JDK's own {@code keytool} in a real
 * process (no test-only crypto library, nothing checked in).
 */
public final class TestCertificates {

    private static final char[] PASSWORD = "test-only".toCharArray();

    /**
     * One issued certificate.
     *
     * @param pem           the certificate as PEM (what a client is told to trust; also the server's chain)
     * @param privateKeyPem the private key as PKCS#8 PEM (for servers that take PEM files)
     * @param serverContext a TLS context that serves it with its key
     */
    public record Issued(Path pem, Path privateKeyPem, SSLContext serverContext) {}

    private TestCertificates() {}

    /**
     * Issues a self-signed certificate for a DNS name (it is its own CA).
     *
     * @param dnsName the only subject alternative name
     * @return the certificate
     */
    public static Issued selfSigned(String dnsName) {
        return selfSigned(dnsName, List.of());
    }

    /**
     * Issues a self-signed certificate for a DNS name and IP addresses (it is its own CA).
     *
     * @param dnsName the DNS subject alternative name (and common name)
     * @param ips     IP subject alternative names, e.g. the address a server advertises
     * @return the certificate
     */
    public static Issued selfSigned(String dnsName, List<String> ips) {
        try {
            Path dir = Files.createTempDirectory("egress-tls-");
            Path store = dir.resolve("server.p12");
            Path pem = dir.resolve("server.pem");
            Path keyPem = dir.resolve("server-key.pem");
            StringBuilder san = new StringBuilder("SAN=dns:" + dnsName);
            ips.forEach(ip -> san.append(",ip:").append(ip));
            TestPki.keytool(
                    "-genkeypair",
                    "-alias",
                    "server",
                    "-keyalg",
                    "EC",
                    "-groupname",
                    "secp256r1",
                    "-validity",
                    "2",
                    "-dname",
                    "CN=" + dnsName,
                    "-ext",
                    san.toString(),
                    "-storetype",
                    "PKCS12",
                    "-keystore",
                    store.toString(),
                    "-storepass",
                    new String(PASSWORD));
            TestPki.keytool(
                    "-exportcert",
                    "-rfc",
                    "-alias",
                    "server",
                    "-keystore",
                    store.toString(),
                    "-storepass",
                    new String(PASSWORD),
                    "-file",
                    pem.toString());
            KeyStore keys = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(store)) {
                keys.load(in, PASSWORD);
            }
            Files.writeString(
                    keyPem,
                    "-----BEGIN PRIVATE KEY-----\n"
                            + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                                    .encodeToString(
                                            keys.getKey("server", PASSWORD).getEncoded())
                            + "\n-----END PRIVATE KEY-----\n");
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(keys, PASSWORD);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(kmf.getKeyManagers(), null, null);
            return new Issued(pem, keyPem, context);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("could not issue a test certificate for " + dnsName, e);
        }
    }
}
