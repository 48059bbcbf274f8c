package dev.egress.discovery.registry;

import dev.egress.discovery.Announcement;

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

    /** Closes every registration and the connection. */
    @Override
    void close();
}
