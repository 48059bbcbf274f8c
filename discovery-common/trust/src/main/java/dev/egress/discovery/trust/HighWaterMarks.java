package dev.egress.discovery.trust;

import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.BorderId;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The newest {@code (publishedAt, generation)} this App accepted from each Border, so that an older
 * announcement the Border really signed (captured from the registry and replayed in a slot of the
 * attacker's) is refused while it is still inside its validity window. An equal mark is the same
 * publish read again (or re-signed by a reconnecting Border) and passes. Bounded: the least recently
 * seen Borders are forgotten first, and for them the validity window alone limits a replay.
 */
final class HighWaterMarks {

    /** One Border's newest accepted publish. */
    record Mark(Instant publishedAt, long generation) implements Comparable<Mark> {

        static Mark of(Announcement announcement) {
            return new Mark(announcement.publishedAt(), announcement.generation());
        }

        @Override
        public int compareTo(Mark other) {
            // Publish time first: a restarted Border starts again at generation 0 with a newer publishedAt.
            int byTime = publishedAt.compareTo(other.publishedAt);
            return byTime != 0 ? byTime : Long.compare(generation, other.generation);
        }
    }

    private final Map<BorderId, Mark> marks;

    HighWaterMarks(int capacity) {
        this.marks = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<BorderId, Mark> eldest) {
                return size() > capacity;
            }
        };
    }

    /**
     * Records an accepted announcement unless it is older than the Border's mark.
     *
     * @param announcement a verified announcement
     * @return null if accepted (the mark is now at least this one's), else the newer mark that refuses it
     */
    synchronized Mark admit(Announcement announcement) {
        Mark offered = Mark.of(announcement);
        Mark newest = marks.get(announcement.borderId());
        if (newest != null && offered.compareTo(newest) < 0) {
            return newest;
        }
        marks.put(announcement.borderId(), offered);
        return null;
    }
}
