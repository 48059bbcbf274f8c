package dev.egress.app.config;

import dev.egress.app.EgressProblemException;
import dev.egress.discovery.web.problem.ProblemType;

/** A tenant-bound API token used for another tenant, or outside the tenant's own endpoints: 403. */
public final class TenantForbiddenException extends EgressProblemException {

    /**
     * Creates the problem.
     *
     * @param detail what was refused (names tenants, never the token)
     */
    public TenantForbiddenException(String detail) {
        super(ProblemType.TENANT_FORBIDDEN, detail);
    }
}
