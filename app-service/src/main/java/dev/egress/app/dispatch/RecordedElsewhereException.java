package dev.egress.app.dispatch;

/**
 * The key of a synchronous delivery already names a durable record (made by another App, before a restart, or by
 * the asynchronous form): nothing is sent, and the caller is sent to the record. Not a problem: the controller turns
 * it into {@code 303 See Other}.
 */
final class RecordedElsewhereException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient KeyedDeliveries.Claim claim;

    RecordedElsewhereException(KeyedDeliveries.Claim claim) {
        super("Idempotency-Key names delivery " + claim.id(), null, false, false);
        this.claim = claim;
    }

    KeyedDeliveries.Claim claim() {
        return claim;
    }
}
