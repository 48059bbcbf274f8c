package dev.egress.app.config;

import dev.egress.app.EgressProblemException;
import org.springframework.http.HttpStatus;

/** A tenant-bound API token used for another tenant, or outside the tenant's own endpoints: 403. */
public final class TenantForbiddenException extends EgressProblemException {

    /** Problem type slug. */
    public static final String SLUG = "tenant-forbidden";

    /**
     * Creates the problem.
     *
     * @param detail what was refused (names tenants, never the token)
     */
    public TenantForbiddenException(String detail) {
        super(HttpStatus.FORBIDDEN, SLUG, detail, null);
    }
}
