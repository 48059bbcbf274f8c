package dev.egress.discovery.registry.select;

import dev.egress.discovery.registry.Route;

/**
 * The 64-bit hashes behind the rendezvous strategies. Computed from the ids' text on every call
 * (a few dozen characters), which costs less than a cache lookup and allocates nothing. Changing
 * the functions remaps keys, and during a rolling release Apps would then disagree, so change them
 * only deliberately.
 */
final class RouteHash {

    private static final long SEED = 0xcbf29ce484222325L;
    private static final long MULTIPLIER = 0x9fb21c651e98df25L;
    private static final long GOLDEN = 0x9e3779b97f4a7c15L;

    private RouteHash() {}

    /**
     * The rendezvous score of a route for a key: a pseudo-random function of both, so each key ranks
     * the routes independently and removing one route does not reorder the others.
     *
     * @param route      the route
     * @param mixedKey   {@link #mix(long) mixed} request key
     * @return the score, compared unsigned
     */
    static long score(Route route, long mixedKey) {
        // The IP takes part so that one Border hosting two of a tenant's IPs yields two distinct routes.
        long routeHash = text(route.borderId().value()) ^ (text(route.ip().value()) * GOLDEN);
        return mix(mixedKey ^ mix(routeHash));
    }

    /**
     * MurmurHash3's 64-bit finaliser: a bijection with full avalanche, so a weak caller hash (e.g.
     * {@code String.hashCode}) still spreads over all 64 bits.
     *
     * @param value any value
     * @return the mixed value
     */
    static long mix(long value) {
        long h = value;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }

    /**
     * A uniform double strictly inside (0, 1) from the top 53 bits of a hash.
     *
     * @param hash a mixed hash
     * @return a value in (0, 1), never 0 or 1, so its logarithm is finite and non-zero
     */
    static double unit(long hash) {
        return ((hash >>> 11) + 0.5) * 0x1.0p-53;
    }

    /**
     * A 64-bit hash of text, four UTF-16 units per multiply: the per-call hashing is the main cost of
     * the rendezvous strategies, and a char-at-a-time hash (FNV) is one dependent multiply per char.
     * Every step is a bijection of the running state, and {@link #mix} finishes the avalanche.
     */
    static long text(String text) {
        int n = text.length();
        long h = SEED ^ n;
        int i = 0;
        for (; i + 4 <= n; i += 4) {
            long word = text.charAt(i)
                    | (long) text.charAt(i + 1) << 16
                    | (long) text.charAt(i + 2) << 32
                    | (long) text.charAt(i + 3) << 48;
            h = Long.rotateLeft((h ^ word) * MULTIPLIER, 29);
        }
        long tail = 0;
        for (; i < n; i++) {
            tail = tail << 16 | text.charAt(i);
        }
        return (h ^ tail) * MULTIPLIER;
    }
}
