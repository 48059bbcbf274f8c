package dev.egress.discovery.trust;

/** A stored record is unsigned, or its signature or signer cannot be trusted ({@link SignedRecords}). */
public final class UntrustedRecordException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param reason the broken rule
     */
    public UntrustedRecordException(String reason) {
        super(reason, null, false, false);
    }
}
