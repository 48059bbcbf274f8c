package dev.egress.app.delivery;

import java.util.stream.IntStream;

/** The buckets this App works now, ascending; read once per poll. */
public interface OwnedBuckets {

    /**
     * The buckets this App works now, ascending; read once per poll.
     *
     * @return the bucket numbers
     */
    int[] current();

    /**
     * Every bucket: for a single App, or until bucket ownership is known.
     *
     * @param count the number of buckets
     * @return buckets 0 to {@code count - 1}
     */
    static OwnedBuckets all(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("egress.delivery.buckets.count: %s (expected: > 0)".formatted(count));
        }
        int[] every = IntStream.range(0, count).toArray();
        return every::clone;
    }
}
