package dev.egress.discovery.registry;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What a Border does with one of its dedicated IPs. The declaration order is the preference order:
 * when several Borders host one IP, the IP's overall status is the best of theirs.
 */
public enum IpStatus {
    /** Takes new traffic. */
    ACTIVE,
    /** Finishes in-flight calls and takes no new ones. */
    DRAINING,
    /** Taken out by an operator. */
    DISABLED;

    /**
     * Whether new deliveries may use an IP in this status.
     *
     * @return true only for {@link #ACTIVE}
     */
    public boolean takesNewTraffic() {
        return this == ACTIVE;
    }

    /**
     * The better of two statuses (ACTIVE over DRAINING over DISABLED).
     *
     * @param other the status to compare with
     * @return the preferred status
     */
    public IpStatus best(IpStatus other) {
        return compareTo(other) <= 0 ? this : other;
    }

    /**
     * Every status by name, in declaration order, as an error message lists what it expected
     * ({@code "ACTIVE, DRAINING or DISABLED"}). Derived from {@link #values()}, so that a new status
     * appears in every such message without another change.
     *
     * @return the names, comma-separated, the last one after "or"
     */
    public static String choices() {
        IpStatus[] all = values();
        String head = Arrays.stream(all, 0, all.length - 1)
                .map(Enum::name)
                .reduce((a, b) -> a + ", " + b)
                .orElse("");
        return head.isEmpty() ? all[all.length - 1].name() : head + " or " + all[all.length - 1].name();
    }

    /**
     * The status an operator typed: its name in any case, surrounding blanks ignored.
     *
     * @param text the text, may be null
     * @return the status, empty if the text names none
     */
    public static Optional<IpStatus> fromName(@Nullable String text) {
        String name = text == null ? "" : text.strip().toUpperCase(Locale.ROOT);
        return Arrays.stream(values()).filter(s -> s.name().equals(name)).findFirst();
    }
}
