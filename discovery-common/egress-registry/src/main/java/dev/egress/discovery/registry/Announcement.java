package dev.egress.discovery.registry;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The whole state of one Border as it publishes it in its slot of {@code borders-registry}: the
 * slot's data is the single source of truth, so every change republishes all of it.
 *
 * @param version     payload format version, always {@value #CURRENT_VERSION}
 * @param borderId    the Border
 * @param endpoint    absolute http(s) URL App uses to reach the Border
 * @param ips         1..{@value #MAX_IPS} distinct IPs (and distinct bind addresses) with their status
 * @param publishedAt when this state was published (App measures propagation lag from it)
 * @param generation  increases with every publish of one Border, so stale data can be recognised
 * @param validFor    how long after {@code publishedAt} App may act on this announcement, or null for no
 *                    window (the plain insecure-local form; signed announcements must carry one, so that a
 *                    replayed copy dies with its window: {@code dev.egress.discovery.trust.AnnouncementVerifier})
 */
public record Announcement(
        int version,
        BorderId borderId,
        URI endpoint,
        List<AnnouncedIp> ips,
        Instant publishedAt,
        long generation,
        Duration validFor) {

    /** The only payload format version this code writes and reads. */
    public static final int CURRENT_VERSION = 1;
    /** Upper bound on IPs per Border. */
    public static final int MAX_IPS = 256;
    /** Longest validity window: a signed announcement must not outlive a day even if its certificate does. */
    public static final Duration MAX_VALIDITY = Duration.ofDays(1);

    /** Validates every rule of the payload; each violation names its field. */
    public Announcement {
        if (version != CURRENT_VERSION) {
            throw new InvalidAnnouncementException("version", "%d (expected: %d)".formatted(version, CURRENT_VERSION));
        }
        if (borderId == null) {
            throw new InvalidAnnouncementException("borderId", "missing");
        }
        validateEndpoint(endpoint);
        if (ips == null || ips.isEmpty() || ips.size() > MAX_IPS) {
            throw new InvalidAnnouncementException(
                    "ips", "%s entries (expected: 1..%d)".formatted(ips == null ? "no" : ips.size(), MAX_IPS));
        }
        Set<EgressIp> seen = new HashSet<>();
        Set<EgressIp> binds = new HashSet<>();
        for (AnnouncedIp ip : ips) {
            if (ip == null) {
                throw new InvalidAnnouncementException("ips", "null entry (expected: an ip with its status)");
            }
            if (!seen.add(ip.ip())) {
                throw new InvalidAnnouncementException(
                        "ips", "duplicate ip %s (expected: each ip once)".formatted(ip.ip()));
            }
            if (!binds.add(ip.bind())) {
                // One local address behind two public ones would make both "dedicated" IPs one sender.
                throw new InvalidAnnouncementException(
                        "ips", "bind address %s used twice (expected: each bind address once)".formatted(ip.bind()));
            }
        }
        ips = List.copyOf(ips);
        if (publishedAt == null) {
            throw new InvalidAnnouncementException("publishedAt", "missing");
        }
        if (generation < 0) {
            throw new InvalidAnnouncementException("generation", "%d (expected: >= 0)".formatted(generation));
        }
        if (validFor != null) {
            requireValidWindow(validFor);
        }
    }

    /**
     * Checks a validity window against the payload rule.
     *
     * @param validFor a window
     * @throws InvalidAnnouncementException unless it lies in 1 s..{@link #MAX_VALIDITY}
     */
    public static void requireValidWindow(Duration validFor) {
        if (validFor.compareTo(Duration.ofSeconds(1)) < 0 || validFor.compareTo(MAX_VALIDITY) > 0) {
            throw new InvalidAnnouncementException(
                    "validFor", "%s (expected: PT1S..%s)".formatted(validFor, MAX_VALIDITY));
        }
    }

    /**
     * An announcement without a validity window (the plain form).
     *
     * @param version     payload format version
     * @param borderId    the Border
     * @param endpoint    its URL for App
     * @param ips         its IPs and their status
     * @param publishedAt the publish time
     * @param generation  the publish count
     */
    public Announcement(
            int version, BorderId borderId, URI endpoint, List<AnnouncedIp> ips, Instant publishedAt, long generation) {
        this(version, borderId, endpoint, ips, publishedAt, generation, null);
    }

    /**
     * A first announcement of a Border: generation 0.
     *
     * @param borderId    the Border
     * @param endpoint    its URL for App
     * @param ips         its IPs and their status
     * @param publishedAt now
     * @return the announcement
     */
    public static Announcement initial(BorderId borderId, URI endpoint, List<AnnouncedIp> ips, Instant publishedAt) {
        return new Announcement(CURRENT_VERSION, borderId, endpoint, ips, publishedAt, 0);
    }

    /**
     * The status of one IP.
     *
     * @param ip the IP
     * @return its status, empty if this Border does not host it
     */
    public Optional<IpStatus> statusOf(EgressIp ip) {
        for (AnnouncedIp announced : ips) {
            if (announced.ip().equals(ip)) {
                return Optional.of(announced.status());
            }
        }
        return Optional.empty();
    }

    /**
     * The same announcement with one IP in a new status.
     *
     * @param ip     a hosted IP
     * @param status its new status
     * @return the changed copy (same generation and time: {@link #republished} stamps those)
     * @throws IllegalArgumentException if the IP is not hosted here
     */
    public Announcement withIpStatus(EgressIp ip, IpStatus status) {
        if (statusOf(ip).isEmpty()) {
            throw new IllegalArgumentException("ip: %s (expected: one of %s)".formatted(ip, ips));
        }
        List<AnnouncedIp> changed = new ArrayList<>(ips.size());
        for (AnnouncedIp announced : ips) {
            changed.add(announced.ip().equals(ip) ? announced.withStatus(status) : announced);
        }
        return new Announcement(version, borderId, endpoint, changed, publishedAt, generation, validFor);
    }

    /**
     * The same announcement with every IP in one status (e.g. all DRAINING on shutdown).
     *
     * @param status the status
     * @return the changed copy
     */
    public Announcement withAllIps(IpStatus status) {
        return new Announcement(
                version,
                borderId,
                endpoint,
                ips.stream().map(ip -> ip.withStatus(status)).toList(),
                publishedAt,
                generation,
                validFor);
    }

    /**
     * This content stamped as the next publish after {@code previous}.
     *
     * @param previousGeneration the generation last published by this Border
     * @param now                the publish time
     * @return a copy with generation {@code previousGeneration + 1} and {@code publishedAt = now}
     */
    public Announcement republished(long previousGeneration, Instant now) {
        return new Announcement(version, borderId, endpoint, ips, now, previousGeneration + 1, validFor);
    }

    /**
     * The same announcement with a validity window; {@link #republished} keeps it, so every publish is
     * valid for the same time after its own {@code publishedAt}.
     *
     * @param window how long each publish stays valid, or null for none
     * @return the changed copy
     */
    public Announcement withValidity(Duration window) {
        return new Announcement(version, borderId, endpoint, ips, publishedAt, generation, window);
    }

    /**
     * The end of the validity window.
     *
     * @return {@code publishedAt + validFor}, empty without a window
     */
    public Optional<Instant> validUntil() {
        return validFor == null ? Optional.empty() : Optional.of(publishedAt.plus(validFor));
    }

    /**
     * Whether two announcements carry the same routing content (Border, endpoint, IPs and status),
     * ignoring publish time and generation.
     *
     * @param other another announcement
     * @return true when routing would not change
     */
    public boolean sameRoutingAs(Announcement other) {
        return other != null
                && borderId.equals(other.borderId)
                && endpoint.equals(other.endpoint)
                && ips.equals(other.ips);
    }

    private static void validateEndpoint(URI endpoint) {
        if (endpoint == null) {
            throw new InvalidAnnouncementException("endpoint", "missing");
        }
        String scheme = Optional.ofNullable(endpoint.getScheme())
                .map(s -> s.toLowerCase(Locale.ROOT))
                .orElse("");
        // App resolves its paths against this base URL, so a query or fragment could only break them;
        // java.net.URI does not range-check ports itself.
        if (!endpoint.isAbsolute()
                || !(scheme.equals("http") || scheme.equals("https"))
                || endpoint.getHost() == null
                || endpoint.getRawUserInfo() != null
                || endpoint.getRawQuery() != null
                || endpoint.getRawFragment() != null
                || endpoint.getPort() == 0
                || endpoint.getPort() > 65_535) {
            throw new InvalidAnnouncementException(
                    "endpoint",
                    "%s (expected: an absolute http(s) URL with a host, a port in 1..65535 if any, and no user info, query or fragment)"
                            .formatted(InvalidAnnouncementException.quoted(endpoint)));
        }
    }
}
