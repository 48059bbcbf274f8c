package dev.egress.border.egress;

/** Startup failure: a configured dedicated IP cannot be bound on this machine. */
final class IpNotBindableException extends RuntimeException {

    private final String ip;

    IpNotBindableException(String ip, String osError, Throwable cause) {
        super("egress.border.ips: cannot bind %s: %s".formatted(ip, osError), cause);
        this.ip = ip;
    }

    String ip() {
        return ip;
    }
}
