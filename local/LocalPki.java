import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * A throwaway local PKI made with the JDK alone (keytool + KeyStore), for ./run-local.sh and
 * docker-compose: one CA, and one identity per argument, written as the PEM files the services read.
 *
 * <pre>java local/LocalPki.java OUT_DIR NAME=SAN[,SAN...] ...
 *   e.g. border-a=uri:spiffe://egress.local/border/border-a,ip:127.0.0.1,dns:localhost</pre>
 *
 * Writes OUT_DIR/ca.pem, OUT_DIR/NAME.pem (chain: leaf, then CA) and OUT_DIR/NAME-key.pem (PKCS#8,
 * mode 600 where the file system allows). Every run makes new keys: nothing here is meant to last.
 */
public class LocalPki {

    private static final String PASSWORD = "local-only";
    // Days, not months: a leaked local key (and any announcement it signed) is dead within days.
    private static final String VALIDITY_DAYS = "3";

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: java LocalPki.java OUT_DIR NAME=SAN[,SAN...] ...");
            System.exit(2);
        }
        Path out = Path.of(args[0]);
        Files.createDirectories(out);
        Path work = Files.createTempDirectory(out, ".work-");
        try {
            Path caStore = work.resolve("ca.p12");
            keytool("-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", VALIDITY_DAYS,
                    "-dname", "CN=egress local CA (throwaway)", "-ext", "bc:c=ca:true", "-ext", "ku:c=keyCertSign,cRLSign",
                    "-storetype", "PKCS12", "-keystore", caStore.toString(), "-storepass", PASSWORD);
            Path caPem = out.resolve("ca.pem");
            keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", caStore.toString(), "-storepass", PASSWORD,
                    "-file", caPem.toString());
            // keytool is a JVM each time: issue the identities in parallel.
            ExecutorService pool = Executors.newFixedThreadPool(Math.min(4, args.length - 1));
            List<Future<?>> issued = new ArrayList<>();
            for (int i = 1; i < args.length; i++) {
                String spec = args[i];
                int eq = spec.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("expected NAME=SAN[,SAN...], got: " + spec);
                }
                String name = spec.substring(0, eq);
                String san = spec.substring(eq + 1);
                issued.add(pool.submit(() -> {
                    issue(work, out, caStore, caPem, name, san);
                    return null;
                }));
            }
            for (Future<?> f : issued) {
                f.get();
            }
            pool.shutdown();
            System.out.println("local PKI in " + out + ": ca.pem and " + (args.length - 1) + " identities");
        } finally {
            try (var files = Files.walk(work)) {
                files.sorted((a, b) -> b.compareTo(a)).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static void issue(Path work, Path out, Path caStore, Path caPem, String name, String san) throws Exception {
        Path store = work.resolve(name + ".p12");
        Path csr = work.resolve(name + ".csr");
        Path leaf = work.resolve(name + ".leaf.pem");
        keytool("-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-validity", VALIDITY_DAYS,
                "-dname", "CN=" + name, "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", PASSWORD);
        keytool("-certreq", "-alias", name, "-keystore", store.toString(), "-storepass", PASSWORD, "-file", csr.toString());
        keytool("-gencert", "-rfc", "-alias", "ca", "-keystore", caStore.toString(), "-storepass", PASSWORD,
                "-infile", csr.toString(), "-outfile", leaf.toString(), "-validity", VALIDITY_DAYS,
                "-ext", "san=" + san, "-ext", "eku=serverAuth,clientAuth", "-ext", "ku:c=digitalSignature");
        Files.writeString(out.resolve(name + ".pem"), Files.readString(leaf) + Files.readString(caPem));
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keys.load(in, PASSWORD.toCharArray());
        }
        byte[] der = keys.getKey(name, PASSWORD.toCharArray()).getEncoded();
        Path key = out.resolve(name + "-key.pem");
        Files.deleteIfExists(key);
        try {
            Files.createFile(key, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException e) {
            Files.createFile(key);
        }
        Files.writeString(key, "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END PRIVATE KEY-----\n");
    }

    private static void keytool(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException("keytool " + args[0] + " failed: " + output);
        }
    }
}
