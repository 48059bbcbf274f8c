package dev.egress.app.delivery.buckets;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * This App among durable delivery's workers ({@code egress.delivery.worker-id}): the data of its {@code workers}
 * unit, and the order in which the Apps' bucket shares are given out.
 *
 * @param workerId the id; empty (default) for the host name and process id, unique per running App
 */
@ConfigurationProperties("egress.delivery")
public record WorkerIdentity(@DefaultValue("") String workerId) {

    /**
     * The id in use.
     *
     * @return the configured id, or host name and process id
     */
    public String resolved() {
        if (!workerId.isBlank()) {
            return workerId;
        }
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "app";
        }
        return host + "-" + ProcessHandle.current().pid();
    }
}
