package dev.egress.app.signing;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * The signing secrets file, parsed: tenant id → its one or two secrets. One file for every tenant, so that a
 * rotation is one atomic write (a Kubernetes Secret with one key) and one reload sees the whole set:
 *
 * <pre>
 * acme:
 *   - whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw   # the new secret
 *   - whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD   # the old one, until every receiver has the new one
 * globex: whsec_...                             # one secret may be written without the list
 * </pre>
 *
 * <p>While a tenant has two secrets, each webhook carries both signatures, space-separated, so a receiver
 * verifies with whichever it has. Errors name the tenant and the entry, never a secret's text: the file's
 * reload errors are logged and shown in health. {@link #toString()} counts secrets and shows none.
 *
 * @param byTenant the secrets of each tenant, in file order
 */
record SigningSecrets(Map<String, List<SigningSecret>> byTenant) {

    /** Secrets per tenant: the one in use and, during a rotation, the one before it. */
    static final int MAX_PER_TENANT = 2;

    /** No tenant has a secret (no file configured, or an empty one). */
    static final SigningSecrets NONE = new SigningSecrets(Map.of());

    /** Copies the map. */
    SigningSecrets {
        Map<String, List<SigningSecret>> copy = new LinkedHashMap<>();
        byTenant.forEach((tenant, secrets) -> copy.put(tenant, List.copyOf(secrets)));
        byTenant = Collections.unmodifiableMap(copy);
    }

    /**
     * A tenant's secrets.
     *
     * @param tenantId the tenant
     * @return one or two secrets, or an empty list when the file has none for it
     */
    List<SigningSecret> of(String tenantId) {
        return byTenant.getOrDefault(tenantId, List.of());
    }

    /**
     * Reads the file's bytes.
     *
     * @param content the file (UTF-8 YAML)
     * @return the secrets
     * @throws IllegalArgumentException naming the entry that breaks a rule, never quoting a secret
     */
    static SigningSecrets parse(byte[] content) {
        Object root = load(new String(content, StandardCharsets.UTF_8));
        if (root == null) {
            return NONE;
        }
        if (!(root instanceof Map<?, ?> top)) {
            throw new IllegalArgumentException("root: expected a mapping of tenant id to its secrets");
        }
        Map<String, List<SigningSecret>> byTenant = new LinkedHashMap<>();
        for (Map.Entry<?, ?> entry : top.entrySet()) {
            if (!(entry.getKey() instanceof String tenant) || tenant.isBlank()) {
                throw new IllegalArgumentException("'%s': expected a tenant id".formatted(entry.getKey()));
            }
            byTenant.put(tenant, secrets(tenant, entry.getValue()));
        }
        return new SigningSecrets(byTenant);
    }

    private static List<SigningSecret> secrets(String tenant, Object value) {
        List<?> texts = value instanceof String one ? List.of(one) : value instanceof List<?> list ? list : null;
        if (texts == null || texts.isEmpty() || texts.size() > MAX_PER_TENANT) {
            throw new IllegalArgumentException(
                    "%s: expected one secret or a list of 1 to %d secrets".formatted(tenant, MAX_PER_TENANT));
        }
        List<SigningSecret> secrets = new ArrayList<>(texts.size());
        Set<SigningSecret> seen = new HashSet<>();
        for (int i = 0; i < texts.size(); i++) {
            if (!(texts.get(i) instanceof String text)) {
                throw new IllegalArgumentException("%s[%d]: expected a whsec_ string".formatted(tenant, i));
            }
            SigningSecret secret;
            try {
                secret = SigningSecret.parse(text.trim());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("%s[%d]: %s".formatted(tenant, i, e.getMessage()), null);
            }
            if (!seen.add(secret)) {
                throw new IllegalArgumentException("%s[%d]: the same secret twice".formatted(tenant, i));
            }
            secrets.add(secret);
        }
        return secrets;
    }

    /** Plain YAML only; a syntax error is reported by its place, as SnakeYAML's message may quote the text. */
    private static Object load(String yaml) {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        options.setMaxAliasesForCollections(0);
        try {
            return new Yaml(new SafeConstructor(options)).load(yaml);
        } catch (MarkedYAMLException e) {
            Mark mark = e.getProblemMark();
            throw new IllegalArgumentException(
                    mark == null
                            ? "not valid YAML"
                            : "not valid YAML at line %d, column %d"
                                    .formatted(mark.getLine() + 1, mark.getColumn() + 1));
        } catch (YAMLException e) {
            throw new IllegalArgumentException("not valid YAML");
        }
    }

    @Override
    public String toString() {
        return "SigningSecrets[tenants=%d, secrets=%d]"
                .formatted(
                        byTenant.size(),
                        byTenant.values().stream().mapToInt(List::size).sum());
    }
}
