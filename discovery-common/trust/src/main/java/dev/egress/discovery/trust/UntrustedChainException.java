package dev.egress.discovery.trust;

/** A peer's certificate chain does not lead to the configured CA (or is expired, or not yet valid). */
public final class UntrustedChainException extends RuntimeException {

    /**
     * Creates the exception.
     *
     * @param reason why the chain is refused
     */
    public UntrustedChainException(String reason) {
        super(reason, null, false, false);
    }
}
