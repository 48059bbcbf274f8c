package dev.egress.border.ssrf;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The egress hop's SSRF guard (DESIGN §3). Two steps, so that the address that is vetted is the
 * address that is connected to:
 * <ol>
 *   <li>{@link #vetUrl} checks the URL without any lookup: scheme, user info, host syntax, and — for
 *       IP literals in any notation browsers accept — the address itself;</li>
 *   <li>{@link #resolveAndVet} resolves a host name exactly once, when a connection is about to be
 *       opened, and vets every address; the connection then uses those addresses only
 *       ({@link VettingResolverGroup}). A pooled connection was vetted when it was opened.</li>
 * </ol>
 * Thread-safe and immutable apart from {@link OwnAddresses}, which learns the listening ports.
 */
public final class SsrfGuard {

    private static final Pattern HOST_NAME = Pattern.compile("[a-z0-9_]([a-z0-9_-]{0,62})(\\.[a-z0-9_]([a-z0-9_-]{0,62}))*\\.?");

    /** Resolves a host name to all its addresses (the JDK resolver in production). */
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
    public record VettedUrl(URI uri, String host, int port, InetAddress literal) {
    }

    private final List<Cidr> allowed;
    private final OwnAddresses own;
    private final NameLookup lookup;

    /**
     * Creates the guard.
     *
     * @param allowed explicit opt-outs from the deny list
     * @param own     the Border's own listening sockets
     * @param lookup  name resolution
     */
    public SsrfGuard(List<Cidr> allowed, OwnAddresses own, NameLookup lookup) {
        this.allowed = List.copyOf(allowed);
        this.own = own;
        this.lookup = lookup;
    }

    /**
     * The explicit opt-outs.
     *
     * @return the allowed ranges
     */
    public List<Cidr> allowed() {
        return allowed;
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
            throw new TargetDeniedException(DenialReason.SCHEME_NOT_ALLOWED,
                    "url: scheme '%s' (expected: http or https)".formatted(scheme));
        }
        if (uri.getRawUserInfo() != null || (uri.getRawAuthority() != null && uri.getRawAuthority().contains("@"))) {
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
            throw new TargetDeniedException(DenialReason.INVALID_PORT, "url: port %d (expected: 1..65535)".formatted(port));
        }
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
            byte[] v4 = Ipv4Literals.parseLenient(host);
            if (v4 == null) {
                throw new TargetDeniedException(DenialReason.INVALID_HOST, "url: host '%s' is not a valid IPv4 address".formatted(host));
            }
            literal = address(v4);
            uriHost = literal.getHostAddress();
        } else if (HOST_NAME.matcher(host).matches() && host.length() <= 253) {
            uriHost = host;
        } else {
            throw new TargetDeniedException(DenialReason.INVALID_HOST, "url: host '%s' is not a valid name".formatted(host));
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
     * Resolves a host once and vets every address; the caller must connect only to the result.
     * Blocking (name resolution): never call on an event loop.
     *
     * @param host a host name or literal as returned in {@link VettedUrl#host()}
     * @param port the port to connect to
     * @return the vetted addresses, in resolver order
     * @throws TargetDeniedException if the name does not resolve or any address is refused
     */
    public List<InetAddress> resolveAndVet(String host, int port) {
        String h = host.toLowerCase(Locale.ROOT);
        InetAddress[] addresses;
        if (h.contains(":")) {
            addresses = new InetAddress[] {ipv6Literal(h)};
        } else if (Ipv4Literals.looksNumeric(h)) {
            byte[] v4 = Ipv4Literals.parseLenient(h);
            if (v4 == null) {
                throw new TargetDeniedException(DenialReason.INVALID_HOST, "host '%s' is not a valid IPv4 address".formatted(h));
            }
            addresses = new InetAddress[] {address(v4)};
        } else {
            try {
                addresses = lookup.lookup(h);
            } catch (UnknownHostException e) {
                throw new TargetDeniedException(DenialReason.UNRESOLVABLE, "host '%s' does not resolve".formatted(h));
            }
            if (addresses == null || addresses.length == 0) {
                throw new TargetDeniedException(DenialReason.UNRESOLVABLE, "host '%s' does not resolve".formatted(h));
            }
        }
        List<InetAddress> vetted = new ArrayList<>(addresses.length);
        for (InetAddress a : addresses) {
            // Every address, not only the first: a resolver may hand out any of them on a later connect.
            vetAddress(a, port);
            vetted.add(a);
        }
        return List.copyOf(vetted);
    }

    /**
     * Vets one resolved address.
     *
     * @param address the address
     * @param port    the port
     * @throws TargetDeniedException if it is the Border itself or in a denied range not explicitly allowed
     */
    public void vetAddress(InetAddress address, int port) {
        if (own.isOwn(address, port)) {
            throw new TargetDeniedException(DenialReason.OWN_ADDRESS,
                    "%s port %d is this Border's own listening address".formatted(address.getHostAddress(), port));
        }
        byte[] bytes = address.getAddress();
        if (isAllowed(bytes)) {
            return;
        }
        Cidr denied = DenyList.denyingRange(bytes);
        if (denied != null) {
            throw new TargetDeniedException(DenialReason.DENIED_RANGE,
                    "%s is in the denied range %s".formatted(address.getHostAddress(), denied));
        }
    }

    private boolean isAllowed(byte[] bytes) {
        byte[] embedded = bytes.length == 16 ? DenyList.embeddedIpv4(bytes) : null;
        for (Cidr range : allowed) {
            if (range.contains(bytes) || (embedded != null && range.contains(embedded))) {
                return true;
            }
        }
        return false;
    }

    private static InetAddress ipv6Literal(String text) {
        int zone = text.indexOf('%');
        String bare = zone < 0 ? text : text.substring(0, zone);
        if (bare.isEmpty() || !bare.matches("[0-9a-f:.]+") || !bare.contains(":")) {
            throw new TargetDeniedException(DenialReason.INVALID_HOST, "url: host '[%s]' is not a valid IPv6 address".formatted(text));
        }
        try {
            // A colon makes this a literal parse: InetAddress never resolves it.
            return InetAddress.getByName(bare);
        } catch (UnknownHostException e) {
            throw new TargetDeniedException(DenialReason.INVALID_HOST, "url: host '[%s]' is not a valid IPv6 address".formatted(text));
        }
    }

    private static InetAddress address(byte[] bytes) {
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("4 bytes are always an address", e);
        }
    }
}
