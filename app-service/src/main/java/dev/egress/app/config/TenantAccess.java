package dev.egress.app.config;

import org.springframework.web.server.ServerWebExchange;

/**
 * The tenant check of a tenant-bound API token, for the handlers that know which tenant a request is
 * for (the filter cannot: a delivery names its tenant in the body). A token valid for every tenant
 * passes for every tenant.
 */
public final class TenantAccess {

    private TenantAccess() {}

    /**
     * Refuses the request if its token is bound to another tenant. Call before anything that reveals
     * whether the tenant exists.
     *
     * @param exchange the request
     * @param tenantId the tenant it acts for
     * @throws TenantForbiddenException for a token bound to another tenant
     */
    public static void check(ServerWebExchange exchange, String tenantId) {
        String bound = exchange.getAttribute(ApiTokenFilter.BOUND_TENANT_ATTRIBUTE);
        if (bound != null && !bound.equals(tenantId)) {
            throw new TenantForbiddenException("this token may act only for tenant '%s'".formatted(bound));
        }
    }
}
