package dev.egress.app.tenants;

import dev.egress.discovery.registry.EgressIp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Reads the tenants file strictly: plain YAML only (no tags, no aliases), every IP a literal, every
 * rule checked, and the first violation reported with its location. Unknown keys are errors too: a
 * typo such as {@code dedicatedIp} must not silently move a tenant to the shared pool.
 */
final class TenantPolicyParser {

    private static final Pattern TENANT_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");
    private static final Set<String> TOP_KEYS = Set.of("sharedPool", "tenants");
    private static final Set<String> TENANT_KEYS =
            Set.of("id", "dedicatedIps", "destinations", "signing", "retrySchedule");

    private TenantPolicyParser() {}

    static TenantPolicy parse(String yaml) throws InvalidTenantsFileException {
        Object root;
        try {
            LoaderOptions options = new LoaderOptions();
            options.setAllowDuplicateKeys(false);
            options.setMaxAliasesForCollections(0);
            // SnakeYAML stops at 3 Mi code points by default; a file the store accepted must not fail on it.
            options.setCodePointLimit(TenantPolicyStore.MAX_FILE_BYTES);
            root = new Yaml(new SafeConstructor(options)).load(yaml);
        } catch (YAMLException e) {
            throw new InvalidTenantsFileException("not valid YAML: " + firstLine(e.getMessage()));
        }
        if (!(root instanceof Map<?, ?> top)) {
            throw new InvalidTenantsFileException("root: expected a mapping with sharedPool and tenants");
        }
        for (Object key : top.keySet()) {
            if (!TOP_KEYS.contains(String.valueOf(key))) {
                throw new InvalidTenantsFileException(
                        "'%s': unknown key (expected: one of %s)".formatted(key, TOP_KEYS));
            }
        }
        List<EgressIp> shared = ips(top.get("sharedPool"), "sharedPool", true);
        Set<EgressIp> sharedSet = Set.copyOf(shared);
        Object tenantList = top.get("tenants");
        if (!(tenantList instanceof List<?> entries)) {
            throw new InvalidTenantsFileException("tenants: expected a list");
        }
        Map<String, Tenant> tenants = new LinkedHashMap<>();
        Map<EgressIp, String> owners = new HashMap<>();
        Map<Destination, String> claimants = new HashMap<>();
        for (int i = 0; i < entries.size(); i++) {
            String where = "tenants[" + i + "]";
            Tenant tenant = tenant(entries.get(i), where, sharedSet, owners);
            if (tenants.put(tenant.id(), tenant) != null) {
                throw new InvalidTenantsFileException(
                        "%s.id: '%s' is defined twice (expected: unique ids)".formatted(where, tenant.id()));
            }
            claim(tenant, where, claimants);
        }
        boolean anyShared = tenants.values().stream().anyMatch(t -> !t.dedicated());
        if (anyShared && shared.isEmpty()) {
            throw new InvalidTenantsFileException(
                    "sharedPool: empty but some tenants have no dedicatedIps (expected: at least one IP)");
        }
        return new TenantPolicy(shared, tenants);
    }

    /** One entry of {@code tenants}; {@code owners} collects which tenant each dedicated IP belongs to. */
    private static Tenant tenant(Object raw, String where, Set<EgressIp> sharedSet, Map<EgressIp, String> owners)
            throws InvalidTenantsFileException {
        if (!(raw instanceof Map<?, ?> entry)) {
            throw new InvalidTenantsFileException(where
                    + ": expected a mapping with id, optional dedicatedIps, destinations, signing and retrySchedule");
        }
        for (Object key : entry.keySet()) {
            if (!TENANT_KEYS.contains(String.valueOf(key))) {
                throw new InvalidTenantsFileException(
                        "%s.%s: unknown key (expected: one of %s)".formatted(where, key, TENANT_KEYS));
            }
        }
        if (!(entry.get("id") instanceof String id) || !TENANT_ID.matcher(id).matches()) {
            throw new InvalidTenantsFileException(
                    "%s.id: '%s' (expected: %s)".formatted(where, entry.get("id"), TENANT_ID));
        }
        List<EgressIp> dedicated = entry.containsKey("dedicatedIps")
                ? ips(entry.get("dedicatedIps"), where + ".dedicatedIps", false)
                : List.of();
        for (EgressIp ip : dedicated) {
            // A dedicated IP in the shared pool would let every shared tenant leave from it.
            if (sharedSet.contains(ip)) {
                throw new InvalidTenantsFileException(
                        "%s.dedicatedIps: %s is also in sharedPool (expected: disjoint)".formatted(where, ip));
            }
            // One IP for two tenants would let each send from the other's allowlisted address.
            String owner = owners.putIfAbsent(ip, id);
            if (owner != null && !owner.equals(id)) {
                throw new InvalidTenantsFileException(
                        "%s.dedicatedIps: %s is dedicated to both '%s' and '%s' (expected: one tenant per dedicated IP)"
                                .formatted(where, ip, owner, id));
            }
        }
        List<Destination> destinations =
                entry.containsKey("destinations") ? destinations(entry.get("destinations"), where, id) : List.of();
        return new Tenant(id, dedicated, destinations, signing(entry, where, id), retrySchedule(entry, where, id));
    }

    /** The tenant's {@code signing} switch: a YAML boolean, so that a quoted "false" is not read as true. */
    private static boolean signing(Map<?, ?> entry, String where, String id) throws InvalidTenantsFileException {
        Object value = entry.get("signing");
        if (value == null && !entry.containsKey("signing")) {
            return false;
        }
        if (!(value instanceof Boolean on)) {
            throw new InvalidTenantsFileException(
                    "%s.signing (tenant '%s'): %s (expected: true or false)".formatted(where, id, value));
        }
        return on;
    }

    /** The tenant's own {@code retrySchedule}, or null for the global one. */
    private static @Nullable RetryDelays retrySchedule(Map<?, ?> entry, String where, String id)
            throws InvalidTenantsFileException {
        if (!entry.containsKey("retrySchedule")) {
            return null;
        }
        try {
            return RetryDelays.parse(entry.get("retrySchedule"));
        } catch (IllegalArgumentException e) {
            throw new InvalidTenantsFileException(
                    "%s.retrySchedule%s (tenant '%s')".formatted(where, located(e.getMessage()), id));
        }
    }

    /** "[3]: ..." stays glued to the key it indexes; any other message follows a colon. */
    private static String located(String message) {
        return message.startsWith("[") ? message : ": " + message;
    }

    /**
     * Records which tenant claims each destination. One destination for two tenants would make the
     * tenant picked for a proxy request depend on file order, so the file is refused instead.
     */
    private static void claim(Tenant tenant, String where, Map<Destination, String> claimants)
            throws InvalidTenantsFileException {
        for (Destination destination : tenant.destinations()) {
            String owner = claimants.putIfAbsent(destination, tenant.id());
            if (owner != null) {
                throw new InvalidTenantsFileException(
                        "%s.destinations: %s is claimed by both '%s' and '%s' (expected: one tenant per destination)"
                                .formatted(where, destination, owner, tenant.id()));
            }
        }
    }

    /** The tenant's {@code destinations}; errors name the entry and the tenant. */
    private static List<Destination> destinations(Object value, String where, String id)
            throws InvalidTenantsFileException {
        if (!(value instanceof List<?> list) || list.isEmpty()) {
            throw new InvalidTenantsFileException(
                    "%s.destinations (tenant '%s'): expected a non-empty list".formatted(where, id));
        }
        List<Destination> destinations = new ArrayList<>(list.size());
        Set<Destination> seen = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            String at = "%s.destinations[%d] (tenant '%s')".formatted(where, i, id);
            // A YAML number (a bare port such as 443) or a mapping is not a destination; say so plainly.
            if (!(list.get(i) instanceof String text)) {
                throw new InvalidTenantsFileException(
                        "%s: %s (expected: a host, *.suffix or IP literal, optionally with :port)"
                                .formatted(at, list.get(i)));
            }
            Destination destination;
            try {
                destination = Destination.parse(text);
            } catch (IllegalArgumentException e) {
                throw new InvalidTenantsFileException(at + ": " + e.getMessage());
            }
            if (!seen.add(destination)) {
                throw new InvalidTenantsFileException(at + ": " + destination + " listed twice");
            }
            destinations.add(destination);
        }
        return destinations;
    }

    private static List<EgressIp> ips(Object value, String where, boolean mayBeMissing)
            throws InvalidTenantsFileException {
        if (value == null && mayBeMissing) {
            return List.of();
        }
        if (!(value instanceof List<?> list) || (!mayBeMissing && list.isEmpty())) {
            throw new InvalidTenantsFileException(
                    where + ": expected a " + (mayBeMissing ? "" : "non-empty ") + "list of IP literals");
        }
        List<EgressIp> ips = new ArrayList<>(list.size());
        Set<EgressIp> seen = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            EgressIp ip;
            try {
                ip = EgressIp.of(String.valueOf(list.get(i)));
            } catch (IllegalArgumentException e) {
                throw new InvalidTenantsFileException("%s[%d]: %s".formatted(where, i, e.getMessage()));
            }
            if (!seen.add(ip)) {
                throw new InvalidTenantsFileException("%s[%d]: %s listed twice".formatted(where, i, ip));
            }
            ips.add(ip);
        }
        return ips;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
