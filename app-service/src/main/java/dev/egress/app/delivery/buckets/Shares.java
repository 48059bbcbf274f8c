package dev.egress.app.delivery.buckets;

/**
 * How many buckets each live App holds, and where each starts looking: pure arithmetic, so that every App computes
 * the same split from the same list of members.
 */
final class Shares {

    private Shares() {}

    /**
     * The buckets an App should hold: {@code count / live}, plus one for the first {@code count % live} Apps in rank
     * order, so the targets add up to exactly {@code count} (every bucket has an owner, none is wanted twice).
     *
     * @param count the buckets
     * @param live  the live Apps, at least 1
     * @param rank  this App's place among them, from 0
     * @return its target
     */
    static int target(int count, int live, int rank) {
        if (live < 1 || rank < 0 || rank >= live) {
            throw new IllegalArgumentException("rank %s of %s live Apps".formatted(rank, live));
        }
        return count / live + (rank < count % live ? 1 : 0);
    }

    /**
     * Where an App starts trying free buckets: the start of its own region, so that Apps joining at once do not
     * race for the same ones.
     *
     * @param count the buckets
     * @param live  the live Apps
     * @param rank  this App's place among them
     * @return the first bucket to try
     */
    static int firstTry(int count, int live, int rank) {
        return (int) ((long) count * rank / live);
    }
}
