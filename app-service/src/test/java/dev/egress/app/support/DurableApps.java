package dev.egress.app.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * What the tests that run two Apps on one delivery store share: a tenants file (acme on one dedicated IP, the shared
 * pool on 127.0.0.8) and the settings every such App has: the tenants, the tokens, insecure-local, the store and its
 * table prefix, four buckets. Each test adds its own settings to the map.
 */
public final class DurableApps {

    private DurableApps() {}

    /**
     * A new directory holding {@code tenants.yaml}: acme dedicated on {@code acmeIp}, the shared pool on 127.0.0.8.
     *
     * @param name   the directory's name prefix
     * @param acmeIp acme's dedicated IP
     * @return the directory
     */
    public static Path tenantsDir(String name, String acmeIp) {
        try {
            Path dir = Files.createTempDirectory(name);
            Files.writeString(dir.resolve("tenants.yaml"), """
                    sharedPool: [127.0.0.8]
                    tenants:
                      - id: acme
                        dedicatedIps: [%s]
                    """.formatted(acmeIp));
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The settings every App of such a test shares.
     *
     * @param dir              the directory of {@link #tenantsDir}
     * @param connectionString the delivery store
     * @param prefix           the tables' prefix, the test's own
     * @return a mutable map, for the test's own settings
     */
    public static Map<String, String> settings(Path dir, String connectionString, String prefix) {
        Map<String, String> settings = new HashMap<>();
        settings.put("egress.tenants.file", dir.resolve("tenants.yaml").toString());
        settings.put("egress.security.api-tokens", AppITSupport.API_TOKEN);
        settings.put("egress.security.internal-token", AppITSupport.INTERNAL_TOKEN);
        settings.put("egress.security.insecure-local", "true");
        settings.put("egress.delivery.store.connection-string", connectionString);
        settings.put("egress.delivery.store.table-prefix", prefix);
        settings.put("egress.delivery.buckets.count", "4");
        return settings;
    }
}
