package dev.egress.discovery.trust;

import dev.egress.discovery.registry.AnnouncedIp;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.EgressIp;
import java.net.InetAddress;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which IPs a Border's credential lets it announce: the IP SANs of its leaf certificate (cert-manager's
 * {@code ipAddresses}, keytool's {@code san=ip:}). Addresses are compared as addresses, not as text, and an
 * IPv4-mapped IPv6 address is the IPv4 address it maps, so {@code ::ffff:127.0.0.3} in an announcement is
 * authorised by {@code 127.0.0.3} in the certificate and the other way round.
 */
public final class IpAuthorisation {

    /** The {@code GeneralName} tag of an IP address SAN (RFC 5280). */
    private static final int SAN_IP = 7;

    private IpAuthorisation() {}

    /**
     * The addresses of an announcement that its leaf certificate does not authorise: every public IP, and
     * every bind address that differs from its IP (behind a NAT).
     *
     * @param leaf         the signer's certificate
     * @param announcement the verified announcement
     * @return the unauthorised addresses in announcement order; empty when all are authorised
     */
    static List<EgressIp> unauthorised(X509Certificate leaf, Announcement announcement) {
        return unauthorised(leaf, announcement.ips());
    }

    /**
     * The addresses among {@code ips} that a certificate does not authorise (a Border checks its own
     * certificate against its configured IPs at startup, so that it does not run unroutable).
     *
     * @param leaf a certificate
     * @param ips  IPs with their bind addresses
     * @return the unauthorised addresses in order; empty when all are authorised
     */
    public static List<EgressIp> unauthorised(X509Certificate leaf, List<AnnouncedIp> ips) {
        Set<InetAddress> authorised = authorised(leaf);
        Set<EgressIp> missing = new LinkedHashSet<>();
        for (AnnouncedIp ip : ips) {
            if (!authorised.contains(normalised(ip.ip()))) {
                missing.add(ip.ip());
            }
            if (ip.translated() && !authorised.contains(normalised(ip.bind()))) {
                missing.add(ip.bind());
            }
        }
        return List.copyOf(missing);
    }

    /**
     * The IP SANs of a certificate as text, for messages.
     *
     * @param leaf the certificate
     * @return the addresses, sorted
     */
    public static Set<String> describe(X509Certificate leaf) {
        Set<String> names = new TreeSet<>();
        authorised(leaf).forEach(address -> names.add(address.getHostAddress()));
        return names;
    }

    private static Set<InetAddress> authorised(X509Certificate leaf) {
        Set<InetAddress> addresses = new LinkedHashSet<>();
        Collection<List<?>> names;
        try {
            names = leaf.getSubjectAlternativeNames();
        } catch (CertificateParsingException e) {
            return addresses; // unreadable names authorise nothing
        }
        if (names == null) {
            return addresses;
        }
        for (List<?> name : names) {
            if (name.size() >= 2 && Integer.valueOf(SAN_IP).equals(name.get(0)) && name.get(1) instanceof String ip) {
                try {
                    addresses.add(normalised(EgressIp.of(ip)));
                } catch (IllegalArgumentException e) {
                    // The JDK prints IP SANs as literals; anything else (a netmask form) authorises nothing.
                }
            }
        }
        return addresses;
    }

    /** Built from the literal's bytes, no lookup; the JDK turns an IPv4-mapped address into its IPv4 one. */
    private static InetAddress normalised(EgressIp ip) {
        return ip.toInetAddress();
    }
}
