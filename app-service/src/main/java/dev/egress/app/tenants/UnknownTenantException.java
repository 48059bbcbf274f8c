package dev.egress.app.tenants;

import dev.egress.app.EgressProblemException;
import dev.egress.discovery.forward.Problems;
import java.util.Map;
import org.springframework.http.HttpStatus;

/** 404: the tenant id is not in the tenants file. */
public final class UnknownTenantException extends EgressProblemException {

    /**
     * Creates the problem.
     *
     * @param tenantId the unknown id
     */
    public UnknownTenantException(String tenantId) {
        super(HttpStatus.NOT_FOUND, Problems.UNKNOWN_TENANT, "tenant '%s' is not known".formatted(tenantId),
                Map.of("tenantId", tenantId));
    }
}
