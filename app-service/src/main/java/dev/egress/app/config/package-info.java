/**
 * App-wide concerns: bearer authentication of App's doors ({@link dev.egress.app.config.ApiTokenFilter},
 * {@link dev.egress.app.config.SecurityProperties}), the tenant check of tenant-bound tokens
 * ({@link dev.egress.app.config.TenantAccess}), and the OpenAPI document's frame.
 */
@NullMarked
package dev.egress.app.config;

import org.jspecify.annotations.NullMarked;
