package dev.egress.app.tenants;

/** The tenants file broke a rule; the message names the rule and where. */
final class InvalidTenantsFileException extends Exception {

    InvalidTenantsFileException(String message) {
        super(message, null, false, false);
    }
}
