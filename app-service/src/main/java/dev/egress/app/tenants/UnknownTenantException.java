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

    /**
     * Creates the problem for a policy that is older than the tenants file: the newest file was refused,
     * so a tenant added there is not known yet. Saying so saves the caller a hunt for a typo.
     *
     * @param tenantId the unknown id
     * @param state    the policy store's state, with the refused file's error
     */
    public UnknownTenantException(String tenantId, TenantPolicyStore.State state) {
        super(HttpStatus.NOT_FOUND, Problems.UNKNOWN_TENANT,
                ("tenant '%s' is not known to the policy in use: the tenants file %s was refused (%s), so the last "
                        + "good policy, applied at %s, is still in use").formatted(tenantId, state.file().getFileName(),
                        state.lastError(), state.appliedAt()),
                Map.of("tenantId", tenantId, "policyStale", true));
    }
}
