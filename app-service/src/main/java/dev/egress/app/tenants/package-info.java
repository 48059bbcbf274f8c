/**
 * The tenant policy: which IPs each tenant may leave from, and which destinations each claims for the
 * forward proxy ({@link dev.egress.app.tenants.TenantPolicy#claimant(String, int)}).
 * {@link dev.egress.app.tenants.TenantPolicyStore} keeps the current {@link dev.egress.app.tenants.TenantPolicy}
 * in step with the tenants file ({@code egress.tenants.file}) and keeps the last good one when an edit is invalid.
 */
@NullMarked
package dev.egress.app.tenants;

import org.jspecify.annotations.NullMarked;
