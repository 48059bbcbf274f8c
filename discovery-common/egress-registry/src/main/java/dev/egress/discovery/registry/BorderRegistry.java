package dev.egress.discovery.registry;

/** Publish side of the registry, used by Borders. */
public interface BorderRegistry extends AutoCloseable {

    /**
     * Starts registering an announcement. Returns at once; the registration becomes
     * {@link RegistrationState#REGISTERED} when the slot is held.
     *
     * @param initial the first announcement (generation and time are stamped by the registration)
     * @return the live registration
     */
    Registration register(Announcement initial);

    /**
     * The durable store of one Border's operator decisions, on the same registry. Unlike the slot it
     * outlives the Border's session, so a restarted Border reads back what its operator decided.
     *
     * @param borderId the Border whose record it is
     * @return the store (no I/O happens until it is used)
     */
    DecisionStore decisions(BorderId borderId);

    /** Closes every registration and the connection. */
    @Override
    void close();
}
