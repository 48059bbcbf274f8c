package dev.egress.discovery.trust;

import dev.egress.discovery.registry.BorderId;
import java.net.URI;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A workload identity as carried in a certificate's URI subject alternative name:
 * {@code spiffe://<trust domain>/border/<borderId>} for Borders, {@code spiffe://<trust domain>/app/<name>}
 * for Apps. Names, not host names, are what App checks on a Border and a Border on App: the
 * registry may say anything about addresses, but only the operator's CA can bind a key to a name.
 *
 * @param trustDomain the trust domain, e.g. {@code egress.local}
 * @param role        {@code border} or {@code app}
 * @param name        the Border id or the App name
 */
public record SpiffeId(String trustDomain, String role, String name) {

    /** The default trust domain ({@code egress.trust.domain}). */
    public static final String DEFAULT_TRUST_DOMAIN = "egress.local";
    /** Role of Border identities. */
    public static final String BORDER = "border";
    /** Role of App identities. */
    public static final String APP = "app";

    private static final Pattern DOMAIN = Pattern.compile("[a-z0-9]([a-z0-9.-]{0,253}[a-z0-9])?");
    private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9._-]{1,128}");
    private static final int SAN_URI = 6;

    /** Validates the parts. */
    public SpiffeId {
        if (trustDomain == null || !DOMAIN.matcher(trustDomain).matches()) {
            throw new IllegalArgumentException(
                    "trustDomain: '%s' (expected: a lower-case DNS-like name)".formatted(trustDomain));
        }
        if (role == null || !SEGMENT.matcher(role).matches()) {
            throw new IllegalArgumentException("role: '%s' (expected: a path segment)".formatted(role));
        }
        if (name == null || !SEGMENT.matcher(name).matches()) {
            throw new IllegalArgumentException("name: '%s' (expected: a path segment)".formatted(name));
        }
    }

    /**
     * The identity of a Border.
     *
     * @param trustDomain the trust domain
     * @param borderId    the Border
     * @return {@code spiffe://<domain>/border/<id>}
     */
    public static SpiffeId border(String trustDomain, BorderId borderId) {
        return new SpiffeId(trustDomain, BORDER, borderId.value());
    }

    /**
     * Parses a SPIFFE URI of the form {@code spiffe://domain/role/name}.
     *
     * @param uri the URI text
     * @return the id, or null if the text is not of that form
     */
    public static @Nullable SpiffeId parse(String uri) {
        try {
            URI parsed = new URI(uri);
            if (!"spiffe".equals(parsed.getScheme())
                    || parsed.getRawQuery() != null
                    || parsed.getRawFragment() != null
                    || parsed.getRawUserInfo() != null
                    || parsed.getPort() != -1
                    || parsed.getHost() == null) {
                return null;
            }
            String[] segments = parsed.getRawPath().split("/", -1);
            if (segments.length != 3 || !segments[0].isEmpty()) {
                return null;
            }
            return new SpiffeId(parsed.getHost(), segments[1], segments[2]);
        } catch (Exception e) {
            return null;
        }
    }

    /**
     * The SPIFFE ids named by a certificate's URI subject alternative names.
     *
     * @param certificate a certificate
     * @return the ids (usually exactly one); unparseable URIs are left out
     */
    public static List<SpiffeId> of(X509Certificate certificate) {
        List<SpiffeId> ids = new ArrayList<>(1);
        try {
            Collection<List<?>> names = certificate.getSubjectAlternativeNames();
            if (names == null) {
                return ids;
            }
            for (List<?> name : names) {
                if (name.size() >= 2
                        && Integer.valueOf(SAN_URI).equals(name.get(0))
                        && name.get(1) instanceof String uri) {
                    SpiffeId id = parse(uri);
                    if (id != null) {
                        ids.add(id);
                    }
                }
            }
        } catch (CertificateParsingException e) {
            return ids;
        }
        return ids;
    }

    /**
     * The URI form.
     *
     * @return {@code spiffe://domain/role/name}
     */
    public String uri() {
        return "spiffe://" + trustDomain + "/" + role + "/" + name;
    }

    @Override
    public String toString() {
        return uri();
    }
}
