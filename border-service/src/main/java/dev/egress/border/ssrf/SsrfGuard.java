package dev.egress.border.ssrf;

import inet.ipaddr.IPAddress;
import inet.ipaddr.ipv4.IPv4Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The egress hop's SSRF guard (docs/architecture.md, "The SSRF guard"). Two steps, so that the address that
 * is vetted is the address that is connected to:
 * <ol>
 *   <li>{@link #vetUrl} checks the URL without any lookup: scheme, user info, host syntax, and — for
 *       IP literals in any notation browsers accept — the address itself;</li>
 *   <li>when a connection is about to be opened, the host name is resolved exactly once (without
 *       blocking, {@link VettingResolverGroup}) and {@link #vetResolved} vets every address; the
 *       connection then uses those addresses only. A pooled connection was vetted when it was opened.</li>
 * </ol>
 * Thread-safe and immutable apart from {@link OwnAddresses}, which learns the listening ports.
 */
public final class SsrfGuard {

    private static final Pattern HOST_NAME =
            Pattern.compile("[a-z0-9_]([a-z0-9_-]{0,62})(\\.[a-z0-9_]([a-z0-9_-]{0,62}))*\\.?");

    /** A blocking name lookup, for {@link #resolveAndVet} (the egress path resolves without blocking). */
    @FunctionalInterface
    public interface NameLookup {
        /**
         * Resolves a name.
         *
         * @param host a host name (never an IP literal)
         * @return all addresses
         * @throws UnknownHostException if the name does not resolve
         */
        InetAddress[] lookup(String host) throws UnknownHostException;
    }

    /**
     * A URL that passed the lexical checks.
     *
     * @param uri     the URL to request; numeric hosts are rewritten to their canonical literal
     * @param host    the host as it will be resolved (lower case, IPv6 without brackets)
     * @param port    the effective port
     * @param literal the address when the host is an IP literal (already vetted), else null
     */
    public record VettedUrl(URI uri, String host, int port, InetAddress literal) {}

    private final List<AllowedRange> allowed;
    private final List<Cidr> denied;
    private final OwnAddresses own;

    /**
     * Creates the guard.
     *
     * @param allowed explicit opt-outs from the deny list ({@code egress.ssrf.allowed-ranges})
     * @param denied  operator ranges no allowed range can reopen ({@code egress.ssrf.denied-ranges})
     * @param own     this host and the Border's own listening sockets
     */
    SsrfGuard(List<AllowedRange> allowed, List<Cidr> denied, OwnAddresses own) {
        this.allowed = List.copyOf(allowed);
        this.denied = List.copyOf(denied);
        this.own = own;
    }

    /**
     * The explicit opt-outs.
     *
     * @return the allowed ranges
     */
    List<AllowedRange> allowed() {
        return allowed;
    }

    /**
     * The operator's deny ranges.
     *
     * @return the denied ranges
     */
    List<Cidr> denied() {
        return denied;
    }

    /**
     * Checks a target URL without resolving anything.
     *
     * @param url the URL App asked for
     * @return the URL to use
     * @throws TargetDeniedException if the URL is refused
     */
    public VettedUrl vetUrl(String url) {
        if (url == null || url.isBlank()) {
            throw new TargetDeniedException(DenialReason.INVALID_URL, "url: missing");
        }
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (URISyntaxException e) {
            throw new TargetDeniedException(DenialReason.INVALID_URL, "url: does not parse (" + e.getReason() + ")");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new TargetDeniedException(
                    DenialReason.SCHEME_NOT_ALLOWED, "url: scheme '%s' (expected: http or https)".formatted(scheme));
        }
        if (uri.getRawUserInfo() != null
                || (uri.getRawAuthority() != null && uri.getRawAuthority().contains("@"))) {
            throw new TargetDeniedException(DenialReason.USERINFO_NOT_ALLOWED, "url: user info is not allowed");
        }
        String rawHost = uri.getHost();
        int explicitPort = uri.getPort();
        if (rawHost == null && uri.getRawAuthority() != null) {
            // java.net.URI rejects hosts such as 0177.0.0.1 or 2130706433 as RFC 2396 names (a top
            // label must start with a letter) and keeps them as a "registry" authority; browsers read
            // them as IPv4 addresses, so split the authority here and let the IPv4 parser decide.
            String authority = uri.getRawAuthority();
            int colon = authority.lastIndexOf(':');
            rawHost = authority;
            if (colon > 0 && !authority.startsWith("[")) {
                rawHost = authority.substring(0, colon);
                try {
                    explicitPort = Integer.parseInt(authority.substring(colon + 1));
                } catch (NumberFormatException e) {
                    throw new TargetDeniedException(DenialReason.INVALID_PORT, "url: port is not a number");
                }
            }
        }
        if (rawHost == null || rawHost.isEmpty()) {
            throw new TargetDeniedException(DenialReason.INVALID_HOST, "url: no valid host");
        }
        int port = explicitPort == -1 ? (scheme.equals("https") ? 443 : 80) : explicitPort;
        if (port < 1 || port > 65535) {
            throw new TargetDeniedException(
                    DenialReason.INVALID_PORT, "url: port %d (expected: 1..65535)".formatted(port));
        }
        return vetHost(uri, scheme, rawHost, explicitPort, port);
    }

    /** The host part of {@link #vetUrl}: an IP literal is vetted now, a name when it resolves. */
    private VettedUrl vetHost(URI uri, String scheme, String rawHost, int explicitPort, int port) {
        String host = rawHost.toLowerCase(Locale.ROOT);
        InetAddress literal = null;
        String uriHost;
        if (host.startsWith("[")) {
            host = host.substring(1, host.length() - 1);
            literal = ipv6Literal(host);
            uriHost = "[" + literal.getHostAddress() + "]";
            if (literal.getAddress().length == 4) {
                uriHost = literal.getHostAddress();
            }
        } else if (Ipv4Literals.looksNumeric(host)) {
            IPAddress v4 = Ipv4Literals.parseLenient(host);
            if (v4 == null) {
                throw new TargetDeniedException(
                        DenialReason.INVALID_HOST, "url: host '%s' is not a valid IPv4 address".formatted(host));
            }
            literal = Addresses.toInet(v4);
            uriHost = literal.getHostAddress();
        } else if (HOST_NAME.matcher(host).matches() && host.length() <= 253) {
            uriHost = host;
        } else {
            throw new TargetDeniedException(
                    DenialReason.INVALID_HOST, "url: host '%s' is not a valid name".formatted(host));
        }
        if (literal != null) {
            vetAddress(literal, port);
            host = literal.getHostAddress();
        }
        String rebuilt = scheme + "://" + uriHost + (explicitPort == -1 ? "" : ":" + port)
                + (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        return new VettedUrl(URI.create(rebuilt), host, port, literal);
    }

    /**
     * The address of a host that is an IP literal, in any notation the URL allows; never a lookup.
     *
     * @param host a host as returned in {@link VettedUrl#host()}
     * @return the address, or empty if the host is a name
     * @throws TargetDeniedException if the host is numeric but not a valid address
     */
    public Optional<InetAddress> literal(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        if (h.contains(":")) {
            return Optional.of(ipv6Literal(h));
        }
        if (Ipv4Literals.looksNumeric(h)) {
            IPAddress v4 = Ipv4Literals.parseLenient(h);
            if (v4 == null) {
                throw new TargetDeniedException(
                        DenialReason.INVALID_HOST, "host '%s' is not a valid IPv4 address".formatted(h));
            }
            return Optional.of(Addresses.toInet(v4));
        }
        return Optional.empty();
    }

    /**
     * Vets every address a name resolved to; the caller must connect only to the result.
     *
     * @param host      the name (for messages)
     * @param port      the port to connect to
     * @param addresses what the resolver returned
     * @return the vetted addresses, in resolver order
     * @throws TargetDeniedException if there is none, or any address is refused
     */
    public List<InetAddress> vetResolved(String host, int port, List<InetAddress> addresses) {
        if (addresses == null || addresses.isEmpty()) {
            throw new TargetDeniedException(DenialReason.UNRESOLVABLE, "host '%s' does not resolve".formatted(host));
        }
        for (InetAddress a : addresses) {
            // Every address, not only the first: a connect may try any of them.
            vetAddress(a, port);
        }
        return List.copyOf(addresses);
    }

    /**
     * Resolves a host once with a blocking lookup and vets every address (literals are never looked up).
     * The egress path resolves without blocking ({@link VettingResolverGroup}); this is the same rule
     * for callers that have a synchronous lookup at hand.
     *
     * @param host   a host name or literal as returned in {@link VettedUrl#host()}
     * @param port   the port to connect to
     * @param lookup name resolution
     * @return the vetted addresses, in resolver order
     * @throws TargetDeniedException if the name does not resolve or any address is refused
     */
    public List<InetAddress> resolveAndVet(String host, int port, NameLookup lookup) {
        Optional<InetAddress> literal = literal(host);
        if (literal.isPresent()) {
            return vetResolved(host, port, List.of(literal.get()));
        }
        String h = host.toLowerCase(Locale.ROOT);
        InetAddress[] addresses;
        try {
            addresses = lookup.lookup(h);
        } catch (UnknownHostException e) {
            throw new TargetDeniedException(DenialReason.UNRESOLVABLE, "host '%s' does not resolve".formatted(h));
        }
        return vetResolved(h, port, addresses == null ? List.of() : List.of(addresses));
    }

    /**
     * Vets one address. In order: the operator's denied ranges (nothing reopens them), the Border's own
     * listening sockets (nothing reopens them), this host's addresses (reopened only by an allowed
     * entry that names the port), the IPv4 address embedded in a translation form (never reopened by
     * an IPv4 entry: the translator, not this host, decides where it goes), then the allowed ranges
     * and the built-in deny list.
     *
     * @param address the address
     * @param port    the port
     * @throws TargetDeniedException if it is refused
     */
    public void vetAddress(InetAddress address, int port) {
        IPAddress a = Addresses.of(address);
        if (a.isIPv6() && a.toIPv6().isIPv4Mapped()) {
            // ::ffff:a.b.c.d is connected to as a.b.c.d: judge it exactly as that address.
            a = a.toIPv6().getEmbeddedIPv4Address();
        }
        List<IPv4Address> embedded = DenyList.embeddedIpv4(a);
        String shown = a.toCanonicalString();
        for (Cidr range : denied) {
            if (range.contains(a)) {
                throw new TargetDeniedException(
                        DenialReason.OPERATOR_DENIED,
                        "%s is in the operator's denied range %s".formatted(shown, range));
            }
            for (IPv4Address e : embedded) {
                if (range.contains(e)) {
                    throw new TargetDeniedException(
                            DenialReason.OPERATOR_DENIED,
                            "%s embeds %s, in the operator's denied range %s".formatted(shown, e, range));
                }
            }
        }
        if (own.isOwnListener(a, port)) {
            throw new TargetDeniedException(
                    DenialReason.OWN_ADDRESS,
                    "%s port %d is this Border's own listening address".formatted(shown, port));
        }
        AllowedRange allowing = allowing(a, port);
        if (allowing != null && own.isOwnHost(a) && !allowing.explicitPorts()) {
            throw new TargetDeniedException(
                    DenialReason.OWN_ADDRESS,
                    "%s is an address of this host; only an allowed range naming port %d may reopen it"
                            .formatted(shown, port));
        }
        for (IPv4Address e : embedded) {
            Cidr range = DenyList.denyingRange(e);
            if (range != null) {
                throw new TargetDeniedException(
                        DenialReason.DENIED_RANGE, "%s embeds %s, in the denied range %s".formatted(shown, e, range));
            }
            if (own.isOwnHost(e)) {
                throw new TargetDeniedException(
                        DenialReason.OWN_ADDRESS, "%s embeds %s, an address of this host".formatted(shown, e));
            }
        }
        if (allowing != null) {
            return;
        }
        Cidr range = DenyList.denyingRange(a);
        if (range != null) {
            throw new TargetDeniedException(
                    DenialReason.DENIED_RANGE, "%s is in the denied range %s".formatted(shown, range));
        }
        if (own.isOwnHost(a)) {
            // Outside every deny range, yet this host: the node's own address under hostNetwork.
            throw new TargetDeniedException(
                    DenialReason.OWN_ADDRESS,
                    "%s is an address of this host; only an allowed range naming port %d may reopen it"
                            .formatted(shown, port));
        }
    }

    private @Nullable AllowedRange allowing(IPAddress address, int port) {
        for (AllowedRange range : allowed) {
            if (range.allows(address, port)) {
                return range;
            }
        }
        return null;
    }

    private static InetAddress ipv6Literal(String text) {
        int zone = text.indexOf('%');
        String bare = zone < 0 ? text : text.substring(0, zone);
        if (bare.isEmpty() || !bare.matches("[0-9a-f:.]+") || !bare.contains(":")) {
            throw new TargetDeniedException(
                    DenialReason.INVALID_HOST, "url: host '[%s]' is not a valid IPv6 address".formatted(text));
        }
        try {
            // A colon makes this a literal parse: InetAddress never resolves it.
            return InetAddress.getByName(bare);
        } catch (UnknownHostException e) {
            throw new TargetDeniedException(
                    DenialReason.INVALID_HOST, "url: host '[%s]' is not a valid IPv6 address".formatted(text));
        }
    }
}
