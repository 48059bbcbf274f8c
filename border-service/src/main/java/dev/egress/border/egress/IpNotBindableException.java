package dev.egress.border.egress;

import org.jspecify.annotations.Nullable;

/** Startup failure: a configured dedicated IP's bind address cannot be bound on this machine. */
final class IpNotBindableException extends RuntimeException {

    private final String ip;

    /**
     * @param bind       the address that could not be bound
     * @param publicIp   the public address it serves behind a NAT, or null when it is its own public address
     * @param osError    the operating system's words
     * @param cause      the bind failure
     */
    IpNotBindableException(String bind, @Nullable String publicIp, String osError, Throwable cause) {
        super(
                "egress.border.ips: cannot bind %s%s: %s"
                        .formatted(
                                bind,
                                publicIp == null ? "" : " (bind address of public address %s)".formatted(publicIp),
                                osError),
                cause);
        this.ip = bind;
    }

    String ip() {
        return ip;
    }
}
