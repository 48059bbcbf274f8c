package dev.egress.app.delivery;

import java.util.stream.IntStream;

/** Which buckets of the delivery table this App's workers poll. */
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
     * @return buckets {@code 0 .. count - 1}, always
     */
    static OwnedBuckets all(int count) {
        int[] every = IntStream.range(0, count).toArray();
        return every::clone;
    }
}
