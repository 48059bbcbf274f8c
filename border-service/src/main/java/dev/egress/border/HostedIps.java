package dev.egress.border;

import dev.egress.discovery.registry.EgressIp;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The dedicated IPs this Border hosts, parsed from {@code egress.border.ips}: each entry is either an
 * address that is both bound and seen ({@code 203.0.113.10}), or {@code bind=public}
 * ({@code 10.0.1.5=203.0.113.10}) for a host behind a 1:1 NAT such as an AWS Elastic IP associated
 * with a private secondary IP. The public address is the IP's identity everywhere outside this
 * Border (announcement {@code ip}, tenants file, App's routing, views); the bind address never leaves
 * this Border except as the announcement's {@code bind} and as the {@code sourceIp} it reports.
 *
 * <p>Every address, bind and public, must be able to be one socket's source and seen as such by a target:
 * the unspecified address ({@code 0.0.0.0}, {@code ::}) means "any local address", a multicast address is a
 * group, and a loopback address is reachable only from this host, so it is a dedicated IP only on a local
 * platform that opts in ({@link Loopback#ALLOWED}, {@code egress.border.allow-loopback-ips}). An IPv4-mapped
 * spelling is its IPv4 address ({@link EgressIp}), so it cannot slip past a duplicate check either.
 *
 * <p>Built once at startup; a bad entry stops startup with a message naming the entry and the rule.
 */
public final class HostedIps {

    private static final String PROPERTY = "egress.border.ips";

    /** Whether loopback addresses may be dedicated IPs ({@code egress.border.allow-loopback-ips}). */
    public enum Loopback {
        /** Local runs and tests: 127.0.0.2-9 stand in for public addresses. */
        ALLOWED,
        /** Everywhere else: a loopback address is refused. */
        REFUSED
    }

    private final Map<EgressIp, EgressIp> bindByPublic;

    private HostedIps(Map<EgressIp, EgressIp> bindByPublic) {
        this.bindByPublic = bindByPublic;
    }

    /**
     * Parses the entries; blank entries are skipped.
     *
     * @param entries  {@code egress.border.ips}
     * @param loopback whether loopback addresses are accepted
     * @return the hosted IPs, in entry order
     * @throws IllegalArgumentException naming the property and the entry when an entry is malformed, names an
     *                                  address no dedicated IP may have, lists a public address twice, or a bind
     *                                  address serves two public ones
     */
    public static HostedIps parse(List<String> entries, Loopback loopback) {
        Map<EgressIp, EgressIp> bindByPublic = new LinkedHashMap<>();
        Map<EgressIp, EgressIp> publicByBind = new HashMap<>();
        for (String raw : entries) {
            if (raw == null || raw.isBlank()) {
                continue;
            }
            String entry = raw.strip();
            int eq = entry.indexOf('=');
            EgressIp bind = address(entry, eq < 0 ? entry : entry.substring(0, eq), "bind address", loopback);
            EgressIp ip = eq < 0 ? bind : address(entry, entry.substring(eq + 1), "public address", loopback);
            if (bindByPublic.containsKey(ip)) {
                throw invalid(
                        entry, "public address %s is listed twice (expected: each dedicated IP once)".formatted(ip));
            }
            EgressIp other = publicByBind.putIfAbsent(bind, ip);
            if (other != null) {
                throw invalid(
                        entry,
                        "bind address %s already serves %s (expected: one public address per bind address)"
                                .formatted(bind, other));
            }
            bindByPublic.put(ip, bind);
        }
        if (bindByPublic.isEmpty()) {
            throw new IllegalArgumentException(
                    PROPERTY + ": no entries (expected: at least one address or bind=public pair)");
        }
        return new HostedIps(Collections.unmodifiableMap(bindByPublic));
    }

    /**
     * The public addresses, in entry order: the IPs' identities.
     *
     * @return the public addresses
     */
    public List<EgressIp> publicIps() {
        return List.copyOf(bindByPublic.keySet());
    }

    /**
     * The bind address of a hosted IP.
     *
     * @param ip a public address
     * @return its bind address, empty if not hosted here
     */
    public Optional<EgressIp> bindOf(EgressIp ip) {
        return Optional.ofNullable(bindByPublic.get(ip));
    }

    /**
     * Every pair, public address to bind address, in entry order.
     *
     * @return the mapping
     */
    public Map<EgressIp, EgressIp> bindByPublic() {
        return bindByPublic;
    }

    @Override
    public String toString() {
        List<String> shown = new ArrayList<>();
        bindByPublic.forEach((ip, bind) -> shown.add(ip.equals(bind) ? ip.value() : bind + "=" + ip));
        return shown.toString();
    }

    private static EgressIp address(String entry, String text, String role, Loopback loopback) {
        if (text.isBlank()) {
            throw invalid(
                    entry,
                    "missing %s (expected: an address, or bind=public such as 10.0.1.5=203.0.113.10)".formatted(role));
        }
        EgressIp ip;
        try {
            ip = EgressIp.of(text.strip());
        } catch (IllegalArgumentException e) {
            throw invalid(
                    entry,
                    "%s '%s' is not an IPv4 or IPv6 literal (expected: an address, or bind=public such as 10.0.1.5=203.0.113.10)"
                            .formatted(role, text.length() > 45 ? text.substring(0, 45) + "..." : text.strip()));
        }
        if (ip.isUnspecified()) {
            throw invalid(
                    entry,
                    "%s %s is unspecified (expected: one address of this host, not 0.0.0.0 or ::)".formatted(role, ip));
        }
        if (ip.isMulticast()) {
            throw invalid(entry, "%s %s is multicast (expected: a unicast address)".formatted(role, ip));
        }
        if (ip.isLoopback() && loopback == Loopback.REFUSED) {
            throw invalid(
                    entry,
                    "%s %s is loopback (expected: an address targets can see; loopback only for local runs, "
                                    .formatted(role, ip)
                            + "with egress.border.allow-loopback-ips=true)");
        }
        return ip;
    }

    private static IllegalArgumentException invalid(String entry, String rule) {
        String shown = entry.length() > 100 ? entry.substring(0, 100) + "..." : entry;
        return new IllegalArgumentException("%s: '%s': %s".formatted(PROPERTY, shown, rule));
    }
}
