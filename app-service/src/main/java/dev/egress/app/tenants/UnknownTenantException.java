package dev.egress.app.tenants;

import dev.egress.app.EgressProblemException;
import dev.egress.discovery.web.problem.Problem;
import dev.egress.discovery.web.problem.ProblemType;

/** 404: the tenant id is not in the tenants file. */
public final class UnknownTenantException extends EgressProblemException {

    /**
     * Creates the problem.
     *
     * @param tenantId the unknown id
     */
    public UnknownTenantException(String tenantId) {
        super(Problem.of(ProblemType.UNKNOWN_TENANT, "tenant '%s' is not known".formatted(tenantId))
                .with("tenantId", tenantId));
    }

    /**
     * Creates the problem for a policy that is older than the tenants file: the newest file was refused,
     * so a tenant added there is not known yet. Saying so saves the caller a hunt for a typo.
     *
     * @param tenantId the unknown id
     * @param state    the policy store's state, with the refused file's error
     */
    public UnknownTenantException(String tenantId, TenantPolicyStore.State state) {
        super(Problem.of(
                        ProblemType.UNKNOWN_TENANT,
                        ("tenant '%s' is not known to the policy in use: the tenants file %s was refused (%s), so the last "
                                        + "good policy, applied at %s, is still in use")
                                .formatted(tenantId, state.file().getFileName(), state.lastError(), state.appliedAt()))
                .with("tenantId", tenantId)
                .with("policyStale", true));
    }
}
